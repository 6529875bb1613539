CREATE TABLE "workflow_list_counts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workflow_list_counts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"scope" text NOT NULL,
	"status" text NOT NULL,
	"folder_id" integer DEFAULT 0 NOT NULL,
	"owned" boolean NOT NULL,
	"n" integer NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_list_entries" (
	"user_id" integer NOT NULL,
	"workflow_id" integer NOT NULL,
	"owned" boolean NOT NULL,
	"status" text,
	"folder_id" integer,
	"child" boolean NOT NULL,
	"pending" boolean NOT NULL,
	"signed" boolean NOT NULL,
	"viewed" boolean NOT NULL,
	CONSTRAINT "workflow_list_entries_user_id_workflow_id_pk" PRIMARY KEY("user_id","workflow_id")
);
--> statement-breakpoint
CREATE TABLE "template_analytics_marks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "template_analytics_marks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"template_id" integer NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
DROP INDEX "workflows_owner_status_idx";--> statement-breakpoint
DROP INDEX "workflows_list_owned_idx";--> statement-breakpoint
DROP INDEX "workflows_list_owned_status_idx";--> statement-breakpoint
CREATE INDEX "workflow_list_counts_user_idx" ON "workflow_list_counts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workflow_list_entries_workflow_idx" ON "workflow_list_entries" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "workflow_list_entries_status_idx" ON "workflow_list_entries" USING btree ("user_id","status","workflow_id") WHERE "workflow_list_entries"."status" is not null;--> statement-breakpoint
CREATE INDEX "workflow_list_entries_action_idx" ON "workflow_list_entries" USING btree ("user_id","workflow_id") WHERE "workflow_list_entries"."pending" or "workflow_list_entries"."signed" or "workflow_list_entries"."viewed";--> statement-breakpoint
CREATE INDEX "workflow_list_entries_folder_idx" ON "workflow_list_entries" USING btree ("user_id","folder_id","workflow_id") WHERE "workflow_list_entries"."folder_id" is not null;--> statement-breakpoint
CREATE INDEX "workflow_list_entries_folder_action_idx" ON "workflow_list_entries" USING btree ("user_id","folder_id","workflow_id") WHERE "workflow_list_entries"."folder_id" is not null and ("workflow_list_entries"."pending" or "workflow_list_entries"."signed" or "workflow_list_entries"."viewed");--> statement-breakpoint
CREATE INDEX "template_analytics_marks_template_idx" ON "template_analytics_marks" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "workflows_name_trgm_idx" ON "workflows" USING gin (lower("name") gin_trgm_ops);