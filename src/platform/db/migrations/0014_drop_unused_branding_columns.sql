ALTER TABLE "organizations" DROP COLUMN "branding";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "logo_blob_key";