import { createRoot } from 'react-dom/client';
import { languageReady } from '../i18n/catalogue.ts';
import { useLanguage } from '../i18n/use-language.ts';
import { SigningPage } from './SigningPage.tsx';

/** Re-renders the whole page when the language menu switches language (state, such as filled fields, is kept). */
function Root({ code }: { code: string }) {
  useLanguage();
  return <SigningPage code={code} />;
}

/** The signing page alone (main.tsx loads this chunk for /sign/<code>, with the PDF engine it needs). */
export async function mount(root: HTMLElement, code: string): Promise<void> {
  // In a language other than English its catalogue was requested by main.tsx; this waits for it, not for a download.
  await languageReady();
  createRoot(root).render(<Root code={code} />);
}
