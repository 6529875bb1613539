import { createRoot } from 'react-dom/client';
import './shared/styles.css';
import { locale, t } from './i18n/i18n.ts';
import { SigningPage } from './signing/SigningPage.tsx';
import { CscCallback } from './signing/CscCallback.tsx';
import { SignInPage } from './signin/SignInPage.tsx';

/** The pages of the web app, by path. The sender's workspace (served at /) will join them here. */
function App() {
  const path = window.location.pathname;
  const signing = /^\/sign\/([^/]+)\/?$/.exec(path);
  if (signing) return <SigningPage code={decodeURIComponent(signing[1])} />;
  if (path === '/csc/callback') return <CscCallback />;
  if (path === '/signin') return <SignInPage />;
  return (
    <main id="main" className="message">
      <h1>{t.notFoundTitle}</h1>
      <p>{t.notFoundText}</p>
    </main>
  );
}

document.documentElement.lang = locale;
createRoot(document.getElementById('root')!).render(<App />);
