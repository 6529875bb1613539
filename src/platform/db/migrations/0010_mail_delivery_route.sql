ALTER TABLE "mail_outbox" ADD COLUMN "route" text;--> statement-breakpoint
CREATE INDEX "mail_outbox_organization_idx" ON "mail_outbox" USING btree ("organization_id","id");