/** Uploading several files one after another, with the progress of the one under way. */
import { useCallback, useState } from 'react';
import { errorText, uploadDocument } from './editor-api.ts';
import { MAX_DOCUMENT_BYTES, type UploadProgress } from './DropZone.tsx';
import { editorText as text } from '../i18n/editor/index.ts';
import type { Sequence } from './types.ts';

export type UploadOutcome = { workflowId: number | null; uploaded: number; error: string | null };

export function useUploader() {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);

  /**
   * Without `workflowId` the first file creates the draft and the others join it. Stops at the first refusal (the
   * ones before it stay uploaded) and says which file and why.
   */
  const upload = useCallback(
    async (files: File[], target: { workflowId?: number; sequence?: Sequence }): Promise<UploadOutcome> => {
      setError(null);
      let workflowId = target.workflowId ?? null;
      let uploaded = 0;
      for (const [index, file] of files.entries()) {
        // The service refuses these too (INVALID_DOCUMENT_SIZE), but only after the whole file has travelled.
        if (file.size > MAX_DOCUMENT_BYTES) {
          const message = text.tooLarge(file.name);
          setError(message);
          setProgress(null);
          return { workflowId, uploaded, error: message };
        }
        const report = (fraction: number) =>
          setProgress({ name: file.name, position: index + 1, total: files.length, fraction });
        report(0);
        try {
          const answer = await uploadDocument(
            file,
            workflowId === null ? { sequence: target.sequence } : { workflowId },
            report,
          );
          workflowId = answer.workflowId;
          uploaded += 1;
        } catch (failure) {
          const message = text.uploadFailed(file.name, errorText(failure));
          setError(message);
          setProgress(null);
          return { workflowId, uploaded, error: message };
        }
      }
      setProgress(null);
      return { workflowId, uploaded, error: null };
    },
    [],
  );

  return { progress, error, setError, upload };
}
