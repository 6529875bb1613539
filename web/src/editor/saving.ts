/**
 * Saving as the sender works: every change goes to the service on its own (field moves debounced), and one
 * indicator says whether everything is saved. Field writes to one field run one after another, so a slow
 * earlier save never lands after a later one.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { createField, deleteField, errorText, fieldInput, updateField, type FieldInput } from './editor-api.ts';
import type { Field } from './types.ts';

export type SaveState = 'saved' | 'saving' | 'failed';

export type SaveTracker = {
  state: SaveState;
  /** Counts the call as pending until it settles; a failure marks the state failed until the next success. */
  track<T>(call: Promise<T>): Promise<T>;
};

export function useSaveTracker(): SaveTracker {
  const [pending, setPending] = useState(0);
  const [failed, setFailed] = useState(false);
  const track = useCallback(<T>(call: Promise<T>): Promise<T> => {
    setPending((n) => n + 1);
    return call.then(
      (value) => {
        setPending((n) => n - 1);
        setFailed(false);
        return value;
      },
      (error: unknown) => {
        setPending((n) => n - 1);
        setFailed(true);
        throw error;
      },
    );
  }, []);
  const state: SaveState = pending > 0 ? 'saving' : failed ? 'failed' : 'saved';
  return useMemo(() => ({ state, track }), [state, track]);
}

/** How long a field rests before its new place, size or properties are saved. */
const SAVE_DELAY_MS = 400;

export type FieldError = { error: unknown; text: string };

export type FieldStore = {
  fields: Field[];
  /** A change is resting before its save: the indicator must not say "saved" yet (the tab could be closed). */
  waiting: boolean;
  /** The last save error of each field (cleared by its next successful save). */
  errors: Record<number, FieldError>;
  create(documentId: number, input: FieldInput): Promise<Field>;
  /** A local change, saved after a short rest. */
  change(id: number, patch: Partial<Field>): void;
  remove(id: number): Promise<void>;
  /** Saves every change still waiting; resolves when all writes have settled. */
  flush(): Promise<void>;
  replaceAll(fields: Field[]): void;
};

export function useFieldStore(workflowId: number, initial: Field[], tracker: SaveTracker): FieldStore {
  const [fields, setFields] = useState<Field[]>(initial);
  const [errors, setErrors] = useState<Record<number, FieldError>>({});
  const latest = useRef<Field[]>(initial);
  const timers = useRef(new Map<number, number>());
  const [waiting, setWaiting] = useState(false);
  const chains = useRef(new Map<number, Promise<void>>());

  const apply = useCallback((next: Field[]) => {
    latest.current = next;
    setFields(next);
  }, []);

  const setError = useCallback((id: number, error: unknown | null) => {
    setErrors((current) => {
      if (error === null) {
        if (!(id in current)) return current;
        const next = { ...current };
        delete next[id];
        return next;
      }
      return { ...current, [id]: { error, text: errorText(error) } };
    });
  }, []);

  const enqueue = useCallback((id: number, work: () => Promise<void>): Promise<void> => {
    const previous = chains.current.get(id) ?? Promise.resolve();
    const next = previous.then(work, work);
    chains.current.set(id, next);
    return next;
  }, []);

  const saveNow = useCallback(
    (id: number): Promise<void> => {
      timers.current.delete(id);
      setWaiting(timers.current.size > 0);
      return enqueue(id, async () => {
        const field = latest.current.find((f) => f.id === id);
        if (!field) return;
        try {
          await tracker.track(updateField(field.documentId, field.id, fieldInput(field)));
          setError(id, null);
        } catch (error) {
          setError(id, error);
        }
      });
    },
    [enqueue, setError, tracker],
  );

  const change = useCallback(
    (id: number, patch: Partial<Field>) => {
      apply(latest.current.map((f) => (f.id === id ? { ...f, ...patch } : f)));
      const timer = timers.current.get(id);
      if (timer !== undefined) window.clearTimeout(timer);
      timers.current.set(
        id,
        window.setTimeout(() => void saveNow(id), SAVE_DELAY_MS),
      );
      setWaiting(true);
    },
    [apply, saveNow],
  );

  const create = useCallback(
    async (documentId: number, input: FieldInput) => {
      const created = await tracker.track(createField(documentId, input));
      apply([...latest.current, created]);
      return created;
    },
    [apply, tracker],
  );

  const remove = useCallback(
    async (id: number) => {
      const timer = timers.current.get(id);
      if (timer !== undefined) window.clearTimeout(timer);
      timers.current.delete(id);
      setWaiting(timers.current.size > 0);
      await enqueue(id, async () => {
        await tracker.track(deleteField(workflowId, id));
      });
      chains.current.delete(id);
      setError(id, null);
      apply(latest.current.filter((f) => f.id !== id));
    },
    [apply, enqueue, setError, tracker, workflowId],
  );

  const flush = useCallback(async () => {
    for (const [id, timer] of [...timers.current]) {
      window.clearTimeout(timer);
      void saveNow(id);
    }
    await Promise.all([...chains.current.values()]);
  }, [saveNow]);

  const replaceAll = useCallback((next: Field[]) => apply(next), [apply]);

  return useMemo(
    () => ({ fields, waiting, errors, create, change, remove, flush, replaceAll }),
    [fields, waiting, errors, create, change, remove, flush, replaceAll],
  );
}
