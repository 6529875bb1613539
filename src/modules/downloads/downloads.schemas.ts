import { Type } from 'typebox';
import { IdParam } from '../../http/schemas.ts';

export const DownloadParams = Type.Object({ workflowId: IdParam });

export const DownloadQuery = Type.Object({
  selectedOption: Type.Union(
    [Type.Literal('downloadDocument'), Type.Literal('downloadAll'), Type.Literal('downloadCoc')],
    {
      description:
        'downloadDocument: one PDF (documentId required); downloadAll: a zip; downloadCoc: the certificate of completion PDF',
    },
  ),
  documentId: Type.Optional(IdParam),
});

export const PageImageQuery = Type.Object({
  documentId: Type.Optional(IdParam),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1, description: 'Page number, from 1' })),
  width: Type.Optional(
    Type.Integer({
      minimum: 50,
      maximum: 4000,
      default: 800,
      description: "Wanted width in pixels; rounded up to a multiple of 200, at most 2000 (the answer's X-Image-Width)",
    }),
  ),
});

export const FileResponse = Type.String({
  description: 'The file bytes (application/pdf or application/zip) with a Content-Disposition attachment name',
});

/**
 * `attachment` with an ASCII fallback name and the exact name in RFC 5987 form, so no header injection and
 * no mangled non-Latin names.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9 ._()-]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
