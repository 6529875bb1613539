DROP INDEX "field_events_template_idx";--> statement-breakpoint
DROP INDEX "workflows_template_idx";--> statement-breakpoint
CREATE INDEX "field_events_recipient_idx" ON "field_events" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "field_events_template_idx" ON "field_events" USING btree ("template_id","placeholder_key","session_id","recipient_id","type","at","received_at") WHERE "field_events"."template_id" is not null;--> statement-breakpoint
CREATE INDEX "workflows_template_idx" ON "workflows" USING btree ("template_id","status","sent_at","completed_at") WHERE "workflows"."template_id" is not null and "workflows"."deleted_at" is null;