-- Sessions: every refresh family gets an absolute end. Existing tokens end when they would have expired anyway.
ALTER TABLE "refresh_tokens" ADD COLUMN "session_expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "refresh_tokens" SET "session_expires_at" = "expires_at";--> statement-breakpoint
ALTER TABLE "refresh_tokens" ALTER COLUMN "session_expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
-- Accounts registered before verification existed keep reaching what is addressed to them (docs/decisions.md).
UPDATE "users" SET "email_verified_at" = "created_at" WHERE NOT "is_guest";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verification_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verification_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_verification_hash_key" ON "users" USING btree ("email_verification_hash");
