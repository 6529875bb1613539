import type { Loaders } from '../catalogue.ts';
import type { Messages } from './en.ts';

/** The languages other than English, each its own chunk: a page downloads only the one it speaks. */
export const loaders: Loaders<Messages> = {
  de: () => import('./de.ts').then((m) => m.de),
  es: () => import('./es.ts').then((m) => m.es),
  fr: () => import('./fr.ts').then((m) => m.fr),
  it: () => import('./it.ts').then((m) => m.it),
  nl: () => import('./nl.ts').then((m) => m.nl),
  pl: () => import('./pl.ts').then((m) => m.pl),
  pt: () => import('./pt.ts').then((m) => m.pt),
};
