ALTER TABLE "business_apps" ADD COLUMN "callback_failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "business_apps" ADD COLUMN "callback_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "via_platform" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "signer_keys" ADD COLUMN "reset_code_hash" text;--> statement-breakpoint
ALTER TABLE "signer_keys" ADD COLUMN "reset_code_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signer_keys" ADD COLUMN "reset_code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signer_keys" ADD COLUMN "reset_code_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "mail_outbox_workflow_idx" ON "mail_outbox" USING btree ("workflow_id","recipient_id") WHERE "mail_outbox"."workflow_id" is not null;