import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.ts';
import { OutboundError, type Outbound } from '../../platform/outbound/outbound.ts';
import { BlobTooLargeError, type BlobStore } from '../../platform/storage/blob-store.ts';

/** SPEC.md Limits: cloud-import response size 25 MB, at most 5 redirects. */
export const CLOUD_IMPORT_MAX_BYTES = 25 * 1024 * 1024;
export const CLOUD_IMPORT_MAX_REDIRECTS = 5;

export type ImportedFile = { size: number; stream: Readable; discard(): Promise<void> };

/**
 * Cloud import (SPEC.md "Documents"): fetches a file the user links to at the box provider and hands its bytes
 * back, so the client can upload them as an ordinary document. The whole body is staged first (streamed, capped)
 * so that a file that turns out too large answers an error instead of a truncated 200.
 */
export function createCloudImportService(deps: {
  outbound: Outbound;
  blobs: BlobStore;
  allowedHosts: readonly string[];
}) {
  return { importFromBox };

  async function importFromBox(link: string): Promise<ImportedFile> {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw new AppError('CLOUD_IMPORT_LINK_REFUSED', 'The link is not a valid URL');
    }
    try {
      const response = await deps.outbound.request({
        url: url.toString(),
        policy: { requireHttps: true, allowedHosts: deps.allowedHosts },
        maxRedirects: CLOUD_IMPORT_MAX_REDIRECTS,
        maxBytes: CLOUD_IMPORT_MAX_BYTES,
      });
      if (response.status < 200 || response.status > 299) {
        response.body.resume();
        throw new AppError(
          'CLOUD_IMPORT_FAILED',
          `The link could not be read: the provider answered HTTP ${response.status}`,
        );
      }
      const staged = await deps.blobs.stage(response.body, CLOUD_IMPORT_MAX_BYTES);
      return {
        size: staged.size,
        stream: fs.createReadStream(staged.path),
        discard: () => deps.blobs.discard(staged),
      };
    } catch (error) {
      throw toImportError(error);
    }
  }
}

function toImportError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof BlobTooLargeError)
    return new AppError('CLOUD_IMPORT_FAILED', 'The linked file is larger than 25 MB');
  if (error instanceof OutboundError) {
    switch (error.failure) {
      case 'POLICY':
        return new AppError('CLOUD_IMPORT_LINK_REFUSED', `The link was refused: ${error.message}`);
      case 'TOO_MANY_REDIRECTS':
        return new AppError('CLOUD_IMPORT_FAILED', `The link redirects ${error.message}`);
      case 'TOO_LARGE':
        return new AppError('CLOUD_IMPORT_FAILED', 'The linked file is larger than 25 MB');
      default:
        return new AppError('CLOUD_IMPORT_FAILED', `The link could not be read: ${error.message}`);
    }
  }
  return error;
}

export type CloudImportService = ReturnType<typeof createCloudImportService>;
