import { createRoot } from 'react-dom/client';
import { languageReady } from './i18n/catalogue.ts';
import { t } from './i18n/signing/index.ts';
import { useLanguage } from './i18n/use-language.ts';
import { isWorkspacePath } from './workspace/routes.tsx';
import { WorkspaceApp } from './workspace/Workspace.tsx';
import { CscCallback } from './signing/CscCallback.tsx';
import { SsoCallback } from './signin/SsoCallback.tsx';
import { SignInPage } from './signin/SignInPage.tsx';

/** The pages of the web app other than the signing page (main.tsx), by path; the sender's workspace (workspace/routes.tsx) owns /, /envelopes/..., /templates... */
function App() {
  useLanguage();
  const path = window.location.pathname;
  if (path === '/csc/callback') return <CscCallback />;
  if (path === '/auth/sso/callback') return <SsoCallback />;
  if (path === '/signin') return <SignInPage />;
  if (isWorkspacePath(path)) return <WorkspaceApp />;
  return (
    <main id="main" className="message">
      <h1>{t.notFoundTitle}</h1>
      <p>{t.notFoundText}</p>
    </main>
  );
}

export async function mount(root: HTMLElement): Promise<void> {
  await languageReady();
  createRoot(root).render(<App />);
}
