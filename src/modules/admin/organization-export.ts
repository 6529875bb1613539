import crypto from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Db } from '../../platform/db/client.ts';
import { findWorkflowDocuments } from '../documents/documents.service.ts';
import { safeBaseName, type DownloadService } from '../downloads/downloads.service.ts';
import type { HistoryService } from '../history/history.service.ts';
import { toHistoryResponse } from '../history/history.schemas.ts';
import { isFinishedStatus } from '../workflows/workflow-status.ts';
import { findOrganizationWorkflowsAfter, type ExportWorkflowRow } from './admin.repo.ts';

/** Envelopes read per statement while the zip is written. */
const BATCH = 50;

type ManifestFile = { path: string; kind: string; bytes: number; sha256: string; documentId?: number };
type ManifestEnvelope = {
  workflowId: number;
  name: string;
  status: string;
  sealStatus: string;
  ownerUserId: number;
  createdAt: string;
  completedAt: string | null;
  folder: string;
  files: ManifestFile[];
  /** What the envelope has but the export could not include, and why (a seal still pending or failed). */
  missing: { kind: string; documentId?: number; reason: string }[];
};

export type OrganizationExportDeps = {
  db: Db;
  downloads: Pick<DownloadService, 'download'>;
  history: Pick<HistoryService, 'getHistory' | 'getEvidenceReport'>;
  logger: Pick<Logger, 'warn'>;
};

/**
 * One organization's envelopes with their evidence as a zip (GET /admin/v1/organizations/{orgId}/export), written
 * while it is sent: entries are stored (PDFs are compressed already), each file passes through as its chunks arrive
 * from the store, and the writer waits whenever the client reads slower, so memory holds a chunk, not the zip. Every
 * file is what the service already answers the envelope's owner: documents from downloads (`downloadDocument`: the
 * sealed file once sealed, else the current one), the certificate of completion (`downloadCoc`), the history as
 * `GET /workflow/v1/{id}/history` answers it, and the evidence report. The operator reads as the owner would;
 * disabled accounts and organizations are exported too (nothing here goes through a caller's authentication).
 * manifest.json, last, lists every envelope, its files with their SHA-256, and what could not be included.
 */
export function exportOrganization(
  deps: OrganizationExportDeps,
  organization: { id: number; name: string },
  now = new Date(),
): Readable {
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      out.destroy(error);
      return;
    }
    if (out.destroyed) return;
    out.write(chunk);
    if (final) out.end();
  });
  const written = new Set<string>();

  /** Waits while the client has not read what was written (the stream's buffer is full). */
  async function drained(): Promise<void> {
    if (out.destroyed) throw new ExportAborted();
    if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    if (out.destroyed) throw new ExportAborted();
  }

  function entryName(name: string): string {
    let candidate = name;
    for (let n = 2; written.has(candidate.toLowerCase()); n++) candidate = name.replace(/(\.[^./]+)?$/, ` (${n})$1`);
    written.add(candidate.toLowerCase());
    return candidate;
  }

  async function addBytes(name: string, bytes: Uint8Array): Promise<{ path: string; bytes: number; sha256: string }> {
    const path = entryName(name);
    const file = new ZipPassThrough(path);
    file.mtime = now;
    zip.add(file);
    file.push(bytes, true);
    await drained();
    return { path, bytes: bytes.byteLength, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
  }

  async function addStream(name: string, stream: Readable): Promise<{ path: string; bytes: number; sha256: string }> {
    const path = entryName(name);
    const file = new ZipPassThrough(path);
    file.mtime = now;
    zip.add(file);
    const hash = crypto.createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of stream) {
        const bytes = chunk instanceof Uint8Array ? chunk : Buffer.from(chunk as string);
        hash.update(bytes);
        size += bytes.byteLength;
        file.push(bytes);
        await drained();
      }
    } finally {
      stream.destroy();
    }
    file.push(new Uint8Array(0), true);
    await drained();
    return { path, bytes: size, sha256: hash.digest('hex') };
  }

  async function addEnvelope(workflow: ExportWorkflowRow): Promise<ManifestEnvelope> {
    const folder = `envelopes/${workflow.id}-${safeBaseName(workflow.name, 'envelope')}`;
    const entry: ManifestEnvelope = {
      workflowId: workflow.id,
      name: workflow.name,
      status: workflow.status,
      sealStatus: workflow.sealStatus,
      ownerUserId: workflow.ownerUserId,
      createdAt: workflow.createdAt.toISOString(),
      completedAt: workflow.completedAt?.toISOString() ?? null,
      folder,
      files: [],
      missing: [],
    };
    const owner: UserCaller = {
      kind: 'user',
      userId: workflow.ownerUserId,
      organizationId: workflow.organizationId,
      membership: { isOwner: false, roleId: null, grants: {} },
    };
    const finished = isFinishedStatus(workflow.status);
    // A seal still running would make each download wait for it: the export says so instead of waiting.
    const sealPending = finished && workflow.sealStatus === 'PENDING';
    /** A refusal the service would answer the owner (a failed seal, a file gone) is recorded, not fatal. */
    const attempt = async (kind: string, documentId: number | undefined, add: () => Promise<ManifestFile>) => {
      try {
        entry.files.push(await add());
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        entry.missing.push({ kind, ...(documentId === undefined ? {} : { documentId }), reason: error.message });
      }
    };

    for (const document of await findWorkflowDocuments(deps.db, workflow.id)) {
      if (sealPending) {
        entry.missing.push({ kind: 'document', documentId: document.id, reason: 'the seal is still pending' });
        continue;
      }
      await attempt('document', document.id, async () => {
        const file = await deps.downloads.download(owner, workflow.id, 'downloadDocument', document.id);
        const name = `${folder}/documents/${document.id}-${file.filename}`;
        const added = 'stream' in file ? await addStream(name, file.stream) : await addBytes(name, file.bytes);
        return { ...added, kind: 'document', documentId: document.id };
      });
    }
    await attempt('audit-trail', undefined, async () => {
      const trail = toHistoryResponse(await deps.history.getHistory(owner, workflow.id));
      const bytes = new TextEncoder().encode(JSON.stringify(trail, null, 2));
      return { ...(await addBytes(`${folder}/audit-trail.json`, bytes)), kind: 'audit-trail' };
    });
    if (finished && sealPending) {
      entry.missing.push({ kind: 'certificate-of-completion', reason: 'the seal is still pending' });
      entry.missing.push({ kind: 'evidence-report', reason: 'the seal is still pending' });
    } else if (finished) {
      await attempt('certificate-of-completion', undefined, async () => {
        const file = await deps.downloads.download(owner, workflow.id, 'downloadCoc');
        if (!('bytes' in file)) throw new AppError('INTERNAL_ERROR', 'The certificate came as a stream');
        return {
          ...(await addBytes(`${folder}/certificate-of-completion.pdf`, file.bytes)),
          kind: 'certificate-of-completion',
        };
      });
      await attempt('evidence-report', undefined, async () => {
        const html = await deps.history.getEvidenceReport(owner, workflow.id);
        return {
          ...(await addBytes(`${folder}/evidence-report.html`, new TextEncoder().encode(html))),
          kind: 'evidence-report',
        };
      });
    }
    return entry;
  }

  async function produce(): Promise<void> {
    const envelopes: ManifestEnvelope[] = [];
    let afterId = 0;
    for (;;) {
      const batch = await findOrganizationWorkflowsAfter(deps.db, organization.id, afterId, BATCH);
      for (const workflow of batch) envelopes.push(await addEnvelope(workflow));
      if (batch.length < BATCH) break;
      afterId = batch[batch.length - 1].id;
    }
    const manifest = {
      organization: { id: organization.id, name: organization.name },
      exportedAt: now.toISOString(),
      envelopes,
    };
    await addBytes('manifest.json', new TextEncoder().encode(JSON.stringify(manifest, null, 2)));
    zip.end();
  }

  produce().catch((error: unknown) => {
    if (error instanceof ExportAborted) return;
    // Headers are sent: the client sees a cut zip (no central directory), never a partial one passed off as whole.
    deps.logger.warn({ err: error, organizationId: organization.id }, 'organization export failed while streaming');
    zip.terminate();
    out.destroy(error as Error);
  });
  return out;
}

/** The client went away: nothing more is read or written. */
class ExportAborted extends Error {}
