import { createRoot } from 'react-dom/client';
import { locale } from '../i18n/i18n.ts';
import { SigningPage } from './SigningPage.tsx';

/** The signing page alone (main.tsx loads this chunk for /sign/<code>, with the PDF engine it needs). */
export function mount(root: HTMLElement, code: string): void {
  document.documentElement.lang = locale;
  createRoot(root).render(<SigningPage code={code} />);
}
