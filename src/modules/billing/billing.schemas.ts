import { Type } from 'typebox';
import { Page } from '../../http/schemas.ts';
import type { PackageRow } from './billing.repo.ts';

export const PackageResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  credits: Type.Number(),
  creditsPrice: Type.Number(),
  discount: Type.Number(),
  preset: Type.Boolean(),
  duration: Type.Integer({ description: 'days per cycle' }),
  servicePlan: Type.String(),
  status: Type.String(),
  currencySymbol: Type.String(),
});

export const PackagesQuery = Type.Object({
  page: Type.Integer({ minimum: 0, default: 0 }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  search: Type.Optional(Type.String({ maxLength: 255 })),
});

export const PackagesPage = Page(PackageResponse);

export function toPackageResponse(row: PackageRow) {
  return {
    id: row.id, name: row.name, description: row.description, credits: row.credits, creditsPrice: Number(row.creditsPrice),
    discount: Number(row.discount), preset: row.preset, duration: row.duration, servicePlan: row.servicePlan, status: row.status,
    currencySymbol: row.currencySymbol,
  };
}
