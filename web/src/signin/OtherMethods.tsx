import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { signinText as text } from '../i18n/signin/index.ts';
import type { Credentials } from './signin-api.ts';
import {
  passkeySignIn,
  passkeysSupported,
  readCertificateFile,
  smartCardHash,
  smartCardVerify,
  type CardChallenge,
  type StepResult,
} from './other-methods-api.ts';
import './signin.css';

/**
 * The other ways to sign in: a passkey and a smart card. Each one signs in through its own API (RUNTIME.md:
 * /auth/webauthn/login/*, /auth/v1/smart_card/*), which answers the password-login shape, and then calls
 * `complete({ grant_type: 'REFRESH_TOKEN', refreshToken })`: the page hands that sign-in over to the web session
 * exactly like a password. Their own errors show inline, in the section the person is using.
 */
export type OtherMethodProps = {
  complete: (credentials: Credentials) => void;
  busy: boolean;
  /** The email typed in the password form: a passkey sign-in is for that account. */
  email: string;
  rememberMe: boolean;
  /** A method starts: the page clears its own error, so one alert at a time is announced. */
  onStart: () => void;
  /** Changes whenever the page starts a sign-in; the sections clear their errors then. */
  attempt: number;
};

export function OtherMethods(props: OtherMethodProps) {
  return (
    <section className="other-methods" aria-labelledby="other-methods-title">
      <h2 id="other-methods-title">{text.otherWays}</h2>
      <PasskeySignIn {...props} />
      <SmartCardSignIn {...props} />
    </section>
  );
}

function Alert({ message }: { message: string | null }) {
  return message ? (
    <div role="alert" className="error">
      <p>{message}</p>
    </div>
  ) : null;
}

/** The message for a failed step that the two methods share (limits, network). */
function common(result: Extract<StepResult<unknown>, { ok: false }>): string | null {
  const minutes = Math.max(1, Math.ceil((result.retryAfterSeconds ?? 900) / 60));
  switch (result.code) {
    case 'ACCOUNT_TEMPORARILY_LOCKED':
      return text.locked(minutes);
    case 'CHALLENGE_RATE_LIMITED':
      return text.tooManyChallenges(minutes);
    case 'NETWORK':
      return text.failed;
    default:
      return null;
  }
}

function PasskeySignIn({ complete, busy, email, rememberMe, onStart, attempt }: OtherMethodProps) {
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(null), [attempt]);

  async function start() {
    onStart();
    setError(null);
    if (!passkeysSupported()) return setError(text.passkeyUnsupported);
    if (!email.trim()) return setError(text.passkeyNeedsEmail);
    setWorking(true);
    const result = await passkeySignIn(email.trim(), rememberMe);
    setWorking(false);
    if (result.ok) return complete({ grant_type: 'REFRESH_TOKEN', refreshToken: result.value.refreshToken });
    setError(
      common(result) ??
        (result.code === 'CANCELLED'
          ? text.passkeyCancelled
          : result.code === 'PASSKEY_REJECTED'
            ? text.passkeyRejected
            : result.code === 'PASSKEY_UNAVAILABLE'
              ? text.passkeyUnsupported
              : text.failed),
    );
  }

  return (
    <div className="method">
      <h3>{text.passkeyTitle}</h3>
      <p>{text.passkeyIntro}</p>
      <Alert message={error} />
      <div className="actions">
        <button type="button" className="secondary" disabled={busy || working} onClick={() => void start()}>
          {working ? text.passkeyWaiting : text.passkeySubmit}
        </button>
      </div>
    </div>
  );
}

/** The OpenSC commands that sign `hash` on a card, for each key type; the hash is written into them. */
function openscCommands(hash: string) {
  const module = '/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so';
  // PKCS#1 v1.5 over a digest: CKM_RSA_PKCS pads but does not add the SHA-256 DigestInfo prefix, so it is prepended.
  const digestInfo = String.raw`\060\061\060\015\006\011\140\206\110\001\145\003\004\002\001\005\000\004\040`;
  return {
    prepare: `echo '${hash}' | base64 -d > hash.bin`,
    rsa: `{ printf '${digestInfo}'; cat hash.bin; } > to-sign.bin\npkcs11-tool --module ${module} --login --sign --mechanism RSA-PKCS --input-file to-sign.bin --output-file signature.bin`,
    ec: `pkcs11-tool --module ${module} --login --sign --mechanism ECDSA --signature-format openssl --input-file hash.bin --output-file signature.bin`,
    print: 'base64 -w0 signature.bin',
  };
}

function SmartCardSignIn({ complete, busy, rememberMe, onStart, attempt }: OtherMethodProps) {
  const [certificate, setCertificate] = useState('');
  const [challenge, setChallenge] = useState<CardChallenge | null>(null);
  const [signature, setSignature] = useState('');
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<string>('');
  const stepHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => setError(null), [attempt]);
  useEffect(() => {
    if (challenge) stepHeading.current?.focus();
  }, [challenge]);

  function describe(result: Extract<StepResult<unknown>, { ok: false }>): string {
    const shared = common(result);
    if (shared) return shared;
    switch (result.code) {
      case 'SMART_CARD_CERTIFICATE_INVALID':
        return text.cardUnreadable;
      case 'OPERATION_IS_NOT_ALLOWED':
        return text.cardOff;
      case 'SMART_CARD_REJECTED':
        return result.reason === 'CHALLENGE' ? text.cardExpiredChallenge : text.cardRejected(result.reason ?? '');
      case 'BAD_REQUEST_BODY':
        return challenge ? text.cardNeedsSignature : text.cardUnreadable;
      default:
        return text.failed;
    }
  }

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      setCertificate(await readCertificateFile(file));
      setError(null);
    } catch {
      setError(text.cardFileUnreadable);
    }
  }

  async function getHash(event: FormEvent) {
    event.preventDefault();
    onStart();
    setError(null);
    if (!certificate.trim()) return setError(text.cardNeedsCertificate);
    setWorking(true);
    const result = await smartCardHash(certificate.trim());
    setWorking(false);
    if (!result.ok) return setError(describe(result));
    setSignature('');
    setCopied('');
    setChallenge(result.value);
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    onStart();
    setError(null);
    const clean = signature.replace(/\s+/g, '');
    if (!challenge || !/^[A-Za-z0-9+/=_-]+$/.test(clean)) return setError(text.cardNeedsSignature);
    setWorking(true);
    const result = await smartCardVerify(challenge.challengeId, clean, rememberMe);
    setWorking(false);
    if (result.ok) return complete({ grant_type: 'REFRESH_TOKEN', refreshToken: result.value.refreshToken });
    // A challenge is single use: any answer but a network failure spent it, so the next try needs a new hash.
    if (result.code !== 'NETWORK' && result.code !== 'BAD_REQUEST_BODY') setChallenge(null);
    setError(describe(result));
  }

  async function copy() {
    if (!challenge) return;
    try {
      await navigator.clipboard.writeText(challenge.hash);
      setCopied(text.cardCopied);
    } catch {
      setCopied(text.cardCopyFailed);
    }
  }

  const disabled = busy || working;
  const commands = challenge ? openscCommands(challenge.hash) : null;
  return (
    <div className="method">
      <h3>{text.cardTitle}</h3>
      <p>{text.cardIntro}</p>
      <Alert message={error} />
      {!challenge || !commands ? (
        <form onSubmit={getHash} noValidate>
          <label className="stacked">
            {text.cardCertificate}
            <textarea
              name="certificate"
              rows={6}
              spellCheck={false}
              autoCapitalize="off"
              value={certificate}
              onChange={(e) => setCertificate(e.target.value)}
            />
          </label>
          <label className="stacked">
            {text.cardCertificateFile}
            <input
              type="file"
              accept=".pem,.crt,.cer,.der,application/x-pem-file,application/pkix-cert"
              onChange={(e) => void onFile(e)}
            />
          </label>
          <div className="actions">
            <button type="submit" className="secondary" disabled={disabled}>
              {working ? text.cardGettingHash : text.cardGetHash}
            </button>
          </div>
        </form>
      ) : (
        <form onSubmit={verify} noValidate>
          <h4 ref={stepHeading} tabIndex={-1}>
            {text.cardHashStep}
          </h4>
          <p>{text.cardHashExpires}</p>
          <label className="stacked">
            {text.cardHash}
            <input type="text" readOnly value={challenge.hash} onFocus={(e) => e.target.select()} spellCheck={false} />
          </label>
          <div className="actions">
            <button type="button" className="secondary" onClick={() => void copy()}>
              {text.cardCopy}
            </button>
          </div>
          <p role="status" className="status">
            {copied}
          </p>
          <details>
            <summary>{text.cardHowTo}</summary>
            <p>{text.cardHowToIntro}</p>
            <pre className="command">
              <code>{commands.prepare}</code>
            </pre>
            <p>{text.cardHowToRsa}</p>
            <pre className="command">
              <code>{commands.rsa}</code>
            </pre>
            <p>{text.cardHowToEc}</p>
            <pre className="command">
              <code>{commands.ec}</code>
            </pre>
            <p>{text.cardHowToLast}</p>
            <pre className="command">
              <code>{commands.print}</code>
            </pre>
          </details>
          <label className="stacked">
            {text.cardSignature}
            <textarea
              name="signature"
              rows={4}
              spellCheck={false}
              autoCapitalize="off"
              value={signature}
              onChange={(e) => setSignature(e.target.value)}
            />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={disabled}>
              {working ? text.submitting : text.cardSubmit}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={disabled}
              onClick={() => {
                setChallenge(null);
                setError(null);
              }}
            >
              {text.cardRestart}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
