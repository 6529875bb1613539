DROP INDEX "workflows_list_owned_idx";--> statement-breakpoint
DROP INDEX "workflows_list_owned_status_idx";--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "parent_recipient_id" integer;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_parent_workflow_id_workflows_id_fk" FOREIGN KEY ("parent_workflow_id") REFERENCES "public"."workflows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_parent_recipient_id_recipients_id_fk" FOREIGN KEY ("parent_recipient_id") REFERENCES "public"."recipients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workflows_survey_child_key" ON "workflows" USING btree ("parent_workflow_id","parent_recipient_id");--> statement-breakpoint
CREATE INDEX "workflows_list_owned_idx" ON "workflows" USING btree ("owner_user_id","status") WHERE "workflows"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "workflows_list_owned_status_idx" ON "workflows" USING btree ("owner_user_id","status","id") WHERE "workflows"."deleted_at" is null;