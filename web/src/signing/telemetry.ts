import type { Api } from '../shared/api.ts';

export type FieldEventType =
  | 'SESSION_START'
  | 'FIELD_VIEWED'
  | 'FIELD_FOCUSED'
  | 'FIELD_GLANCED'
  | 'FIELD_FILLED'
  | 'SUBMITTED';
type FieldEvent = { fieldId: number | null; type: FieldEventType; at: string };

/** A field on screen for at least this long was viewed; shorter was a glance. */
const VIEWED_AFTER_MS = 1000;
const FLUSH_EVERY_MS = 5000;

/**
 * SPEC.md's signing telemetry: events collected in memory and sent in batches per document to
 * POST /workflow/v1/field-events, every few seconds and when the page is hidden. Sending never waits and
 * never reports failure: the signer must not notice it (the route may not exist on this service yet).
 */
export function createTelemetry(api: Api, workflowId: number) {
  const sessionId = crypto.randomUUID();
  const pending = new Map<number, FieldEvent[]>();
  const timer = setInterval(flush, FLUSH_EVERY_MS);
  const onHide = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  document.addEventListener('visibilitychange', onHide);
  window.addEventListener('pagehide', flush);

  function record(documentId: number, fieldId: number | null, type: FieldEventType): void {
    const list = pending.get(documentId) ?? [];
    list.push({ fieldId, type, at: new Date().toISOString() });
    pending.set(documentId, list);
  }

  function flush(): void {
    for (const [documentId, events] of pending) {
      if (events.length === 0) continue;
      api.beacon('/workflow/v1/field-events', { sessionId, workflowId, documentId, events });
    }
    pending.clear();
  }

  /** Watches one of the signer's fields on screen: FIELD_VIEWED after a second in view, FIELD_GLANCED when it left sooner. */
  function observe(element: HTMLElement, documentId: number, fieldId: number): () => void {
    // out → entering (half or more on screen) → viewed after a second; leaving while entering is a glance.
    let state: 'out' | 'entering' | 'viewed' = 'out';
    let viewedTimer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const inView = entry.isIntersecting && entry.intersectionRatio >= 0.5;
          if (inView && state === 'out') {
            state = 'entering';
            viewedTimer = setTimeout(() => {
              record(documentId, fieldId, 'FIELD_VIEWED');
              state = 'viewed';
            }, VIEWED_AFTER_MS);
          } else if (!inView) {
            if (state === 'entering') {
              clearTimeout(viewedTimer);
              record(documentId, fieldId, 'FIELD_GLANCED');
            }
            state = 'out';
          }
        }
      },
      { threshold: 0.5 },
    );
    observer.observe(element);
    return () => {
      clearTimeout(viewedTimer);
      observer.disconnect();
    };
  }

  function stop(): void {
    flush();
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onHide);
    window.removeEventListener('pagehide', flush);
  }

  return { record, flush, observe, stop };
}
export type Telemetry = ReturnType<typeof createTelemetry>;
