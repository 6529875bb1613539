/**
 * The web app's entry: kept tiny so it runs as soon as it arrives. A signing link (/sign/<code>) starts its
 * requests and the PDF worker here (signing/start.ts), before React and the page's chunks are even compiled, then
 * loads the signing page alone; every other path loads app.tsx (sign-in, the CSC return, the sender's workspace),
 * its language's catalogues downloading beside it.
 * Vite preloads each chunk's imports in parallel with it.
 */
import './shared/styles.css';
import { currentLanguage } from './i18n/language.ts';
import { loaders as organizationLanguages } from './i18n/organization/languages.ts';
import { loaders as signinLanguages } from './i18n/signin/languages.ts';
import { loaders as signingLanguages } from './i18n/signing/languages.ts';
import { loaders as workspaceLanguages } from './i18n/workspace/languages.ts';
import { startSigning } from './signing/start.ts';

const root = document.getElementById('root')!;
const signing = /^\/sign\/([^/]+)\/?$/.exec(window.location.pathname);

const loading = signing
  ? (() => {
      const code = decodeURIComponent(signing[1]);
      startSigning(code);
      // A language other than English: its catalogue downloads beside the page's chunk, not after it.
      const language = currentLanguage();
      if (language !== 'en') signingLanguages[language]?.().catch(() => {});
      return import('./signing/signing-app.tsx').then((page) => page.mount(root, code));
    })()
  : (() => {
      const language = currentLanguage();
      const path = window.location.pathname;
      if (language !== 'en') {
        if (path === '/signin') signinLanguages[language]?.().catch(() => {});
        // Any other page but the two callbacks is the sender's workspace: its shell's catalogue, and the organization
        // screens' one where those open (the templates and profile screens share its small kit too).
        else if (path !== '/csc/callback' && path !== '/auth/sso/callback') {
          workspaceLanguages[language]?.().catch(() => {});
          if (/^\/(organization|templates|profile)(\/|$)/.test(path))
            organizationLanguages[language]?.().catch(() => {});
        }
      }
      return import('./app.tsx').then((app) => app.mount(root));
    })();

// A chunk that failed to download (a deploy replaced it, the network dropped) leaves a sentence, not a blank page.
loading.catch(() => {
  const message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.textContent = 'The page could not be loaded. Please reload it.';
  root.replaceChildren(message);
});
