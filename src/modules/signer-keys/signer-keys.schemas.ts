import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const SigningKeyStatusResponse = Type.Object({
  useDigitalCert: Type.Boolean({ description: 'whether the caller\'s recipient row signs its DIGITAL_SIGNATURE fields with a personal certificate and the signing password' }),
  provisioned: Type.Boolean({ description: 'whether the person (the row\'s email) already has a signing key: false, the first signing password creates it; true, the same password must be entered' }),
  minPasswordLength: Type.Integer({ description: 'the shortest signing password accepted when the key is created' }),
  certificate: Type.Union([Type.Object({
    subject: Type.String({ description: 'the certificate subject (CN = the name, E = the email)' }),
    issuer: Type.String({ description: 'the platform CA' }),
    serialNumber: Type.String({ description: 'hex' }),
    notBefore: Type.String({ format: 'date-time' }),
    notAfter: Type.String({ format: 'date-time' }),
  }), Type.Null()], { description: 'the person\'s current signing certificate; null before the first signature' }),
}, { description: 'The local signing certificate of the caller\'s recipient row' });
export type SigningKeyStatusResponse = Static<typeof SigningKeyStatusResponse>;
