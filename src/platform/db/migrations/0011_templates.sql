CREATE TABLE "template_instance_fields" (
	"field_id" integer PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"placeholder_key" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "templates_org_idx";--> statement-breakpoint
ALTER TABLE "template_folders" ALTER COLUMN "role_ids" SET DEFAULT '[]'::jsonb;--> statement-breakpoint
ALTER TABLE "template_folders" ALTER COLUMN "role_ids" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ALTER COLUMN "recipient_labels" SET DEFAULT '[]'::jsonb;--> statement-breakpoint
ALTER TABLE "templates" ALTER COLUMN "recipient_labels" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "field_events" ADD COLUMN "recipient_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "field_events" ADD COLUMN "template_id" integer;--> statement-breakpoint
ALTER TABLE "field_events" ADD COLUMN "placeholder_key" text;--> statement-breakpoint
ALTER TABLE "field_events" ADD COLUMN "received_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "template_id" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "source_workflow_id" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "snapshot_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "template_instance_fields" ADD CONSTRAINT "template_instance_fields_field_id_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_instance_fields" ADD CONSTRAINT "template_instance_fields_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_events" ADD CONSTRAINT "field_events_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_events" ADD CONSTRAINT "field_events_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_events" ADD CONSTRAINT "field_events_field_id_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_events" ADD CONSTRAINT "field_events_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_events" ADD CONSTRAINT "field_events_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_folders" ADD CONSTRAINT "template_folders_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_folders" ADD CONSTRAINT "template_folders_parent_folder_id_template_folders_id_fk" FOREIGN KEY ("parent_folder_id") REFERENCES "public"."template_folders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_source_workflow_id_workflows_id_fk" FOREIGN KEY ("source_workflow_id") REFERENCES "public"."workflows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_folder_id_template_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."template_folders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "field_events_once_key" ON "field_events" USING btree ("session_id","recipient_id",coalesce("field_id", 0),"type");--> statement-breakpoint
CREATE INDEX "field_events_template_idx" ON "field_events" USING btree ("template_id","placeholder_key","session_id","recipient_id","type","at") WHERE "field_events"."template_id" is not null;--> statement-breakpoint
CREATE INDEX "workflows_template_idx" ON "workflows" USING btree ("template_id","status","sent_at","completed_at") WHERE "workflows"."template_id" is not null;--> statement-breakpoint
CREATE INDEX "template_folders_parent_idx" ON "template_folders" USING btree ("parent_folder_id");--> statement-breakpoint
CREATE UNIQUE INDEX "template_folders_name_key" ON "template_folders" USING btree ("organization_id",coalesce("parent_folder_id", 0),lower("name"));--> statement-breakpoint
CREATE INDEX "templates_folder_idx" ON "templates" USING btree ("folder_id");--> statement-breakpoint
CREATE UNIQUE INDEX "templates_name_key" ON "templates" USING btree ("organization_id",coalesce("folder_id", 0),lower("name")) WHERE "templates"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "templates_org_idx" ON "templates" USING btree ("organization_id","id") WHERE "templates"."deleted_at" is null;