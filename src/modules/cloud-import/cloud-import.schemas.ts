import { Type } from 'typebox';

export const CloudImportQuery = Type.Object({
  link: Type.String({ minLength: 1, maxLength: 4096, description: 'https URL of the file at the box provider' }),
});
