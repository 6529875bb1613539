/**
 * /signup: a new account (POST /auth/v1/signup) with the service's rules shown next to each field before and
 * after sending, then on to sign-in. A public page: no session needed.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../shared/api.ts';
import { signupText as text } from '../i18n/workspace/index.ts';
import type { PageProps } from './routes.tsx';
import { publicRequest, signInUrl } from './session-api.ts';
import { useTitle } from './ui.tsx';
import { isPersonName } from '../shared/person-name.ts';

const EMAIL_RULE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Field = 'name' | 'email' | 'password';
type Errors = Partial<Record<Field, string>>;

/** The rules the service applies (RUNTIME.md "Accounts"), checked here first so the person sees them at once. */
function check(values: Record<Field, string>): Errors {
  const errors: Errors = {};
  const name = values.name.trim();
  if (name.length < 3 || name.length > 20 || !isPersonName(name)) errors.name = text.nameInvalid;
  if (!EMAIL_RULE.test(values.email.trim()) || values.email.trim().length > 255) errors.email = text.emailInvalid;
  if (values.password.length < 8 || values.password.length > 128) errors.password = text.passwordInvalid;
  return errors;
}

export function SignUpPage(_props: PageProps) {
  useTitle(text.title);
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const inputs = {
    name: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
  };
  const doneHeading = useRef<HTMLHeadingElement>(null);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    let live = true;
    publicRequest<{ signupEnabled?: boolean }>('GET', '/auth/v1/app_settings').then(
      (settings) => live && setClosed(settings.signupEnabled === false),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = check(values);
    setErrors(found);
    setFormError(null);
    const first = (['name', 'email', 'password'] as Field[]).find((field) => found[field]);
    if (first) {
      inputs[first].current?.focus();
      return;
    }
    setBusy(true);
    try {
      await publicRequest('POST', '/auth/v1/signup', {
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
      });
      setDone(values.email.trim());
      setTimeout(() => doneHeading.current?.focus(), 0);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        setErrors({ email: text.emailTaken });
        inputs.email.current?.focus();
      } else if (failure instanceof ApiError && failure.code === 'SIGNUP_DISABLED') {
        setFormError(text.disabled);
      } else if (failure instanceof ApiError && failure.status === 400) {
        // The service's own check disagreed with ours: show its words.
        setFormError(failure.message);
      } else {
        setFormError(text.failed);
      }
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <div className="ws-page">
        <h1 ref={doneHeading} tabIndex={-1}>
          {text.doneTitle}
        </h1>
        <p>{text.doneText(done)}</p>
        <p>
          <a className="ws-button ws-button--primary" href={signInUrl('/')}>
            {text.continueToSignIn}
          </a>
        </p>
      </div>
    );
  }

  if (closed) {
    return (
      <div className="ws-page">
        <h1>{text.title}</h1>
        <p>{text.disabled}</p>
        <p>
          <a href={signInUrl('/')}>{text.signIn}</a>
        </p>
      </div>
    );
  }

  function field(name: Field, label: string, type: string, autoComplete: string, hint?: string) {
    const hintId = `${id}-${name}-hint`;
    const errorId = `${id}-${name}-error`;
    const describedBy = [errors[name] ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
    return (
      <>
        <label htmlFor={`${id}-${name}`}>{label}</label>
        <input
          ref={inputs[name]}
          id={`${id}-${name}`}
          name={name}
          type={type}
          autoComplete={autoComplete}
          value={values[name]}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => setValues((v) => ({ ...v, [name]: event.target.value }))}
        />
        {hint && (
          <p id={hintId} className="hint">
            {hint}
          </p>
        )}
        {errors[name] && (
          <p id={errorId} className="ws-field-error">
            {errors[name]}
          </p>
        )}
      </>
    );
  }

  return (
    <div className="ws-page">
      <h1>{text.title}</h1>
      <p>{text.intro}</p>
      {formError && (
        <div role="alert" className="ws-error">
          <p>{formError}</p>
        </div>
      )}
      <form className="ws-form" onSubmit={submit} noValidate>
        {field('name', text.name, 'text', 'name', text.nameHint)}
        {field('email', text.email, 'email', 'email')}
        {field('password', text.password, 'password', 'new-password', text.passwordHint)}
        <div className="ws-actions">
          <button type="submit" className="ws-button ws-button--primary" disabled={busy}>
            {busy ? text.submitting : text.submit}
          </button>
        </div>
      </form>
      <p>
        {text.haveAccount} <a href={signInUrl('/')}>{text.signIn}</a>
      </p>
    </div>
  );
}
