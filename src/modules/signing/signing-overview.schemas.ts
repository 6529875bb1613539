import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const SigningOverviewResponse = Type.Object(
  {
    workflowId: Type.Integer(),
    name: Type.String({ description: 'the workflow name' }),
    title: Type.Union([Type.String(), Type.Null()], {
      description: 'the commence title (the mail subject); null when none was given',
    }),
    message: Type.Union([Type.String(), Type.Null()], {
      description: "the sender's commence message, as mailed; null when none was given",
    }),
    ownerName: Type.String({ description: 'who sent the workflow' }),
    status: Type.String({ description: 'DRAFT, SENT, COMPLETED or VOID' }),
    sequence: Type.String({ description: 'SELF, ORDERED, UNORDERED or SURVEY' }),
    sealStatus: Type.String({
      description:
        'NONE before completion; PENDING until the sealed PDF is stored, then SEALED (downloads answer the sealed files) or FAILED',
    }),
  },
  { description: 'What the signing page shows above the document' },
);
export type SigningOverviewResponse = Static<typeof SigningOverviewResponse>;
