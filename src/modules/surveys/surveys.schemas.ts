import { Type, type Static } from 'typebox';
import { IdParam, PageQuery } from '../../http/schemas.ts';
import type { ChildRow, SurveyCounts } from './surveys.repo.ts';

export const SurveyParams = Type.Object({ parentWorkflowId: IdParam });

export const DispatchProgress = Type.Object({
  dispatchedCount: Type.Integer({ description: 'children created and sent so far' }),
  totalRecipients: Type.Integer({ description: "the survey's recipients: one child each once dispatch is over" }),
});

export const SurveyChild = Type.Object({
  workflowId: Type.Integer({ description: 'the child workflow' }),
  recipientName: Type.String(),
  recipientEmail: Type.String(),
  status: Type.String({
    description:
      "the child workflow's status: SENT (pending), COMPLETED, or VOID (declined, or voided with the parent)",
  }),
});

export const SurveyChildrenPage = Type.Object({
  content: Type.Array(SurveyChild),
  totalElements: Type.Integer({ description: 'children dispatched so far' }),
  completedCount: Type.Integer({ description: 'COMPLETED children of the whole survey' }),
  respondedCount: Type.Integer({
    description: 'COMPLETED plus VOID (declined or voided) children of the whole survey',
  }),
  dispatchedCount: Type.Integer({ description: 'children dispatched so far (the whole survey)' }),
});

export const ChildrenQuery = PageQuery;

export const ExportQuery = Type.Object({
  includeFields: Type.Boolean({
    default: false,
    description: 'add one column per field label with what each recipient filled in',
  }),
});

export const CsvResponse = Type.String({ description: 'text/csv; charset=utf-8, streamed' });

export function toProgress(counts: SurveyCounts): Static<typeof DispatchProgress> {
  return { dispatchedCount: counts.dispatched, totalRecipients: counts.totalRecipients };
}

export function toChildrenPage(rows: ChildRow[], counts: SurveyCounts): Static<typeof SurveyChildrenPage> {
  return {
    content: rows.map((row) => ({
      workflowId: row.workflowId,
      recipientName: row.recipientName,
      recipientEmail: row.recipientEmail,
      status: row.status,
    })),
    totalElements: counts.dispatched,
    completedCount: counts.completed,
    respondedCount: counts.completed + counts.voided,
    dispatchedCount: counts.dispatched,
  };
}
