/**
 * The product's own name: the header of every screen, the page titles and the mail layout's sign-off when an
 * organization has no brand name (the service's `platform/mail/templates/layout.ts` writes the same).
 */
export const PRODUCT_NAME = 'Signature Service';
