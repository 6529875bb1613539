ALTER TABLE "business_apps" ADD COLUMN "callback_failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "business_apps" ADD COLUMN "callback_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "via_platform" boolean DEFAULT false NOT NULL;