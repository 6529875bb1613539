CREATE TABLE "signer_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signer_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"name" text NOT NULL,
	"kdf" jsonb NOT NULL,
	"wrap_iv" text NOT NULL,
	"wrapped_key" text NOT NULL,
	"wrap_tag" text NOT NULL,
	"certificate" text NOT NULL,
	"certificate_serial" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signer_revisions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signer_revisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workflow_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"field_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"status" text NOT NULL,
	"signer_kind" text NOT NULL,
	"base_revision_id" integer,
	"blob_key" text NOT NULL,
	"size" integer NOT NULL,
	"drawn_field_ids" jsonb NOT NULL,
	"pending" jsonb,
	"certificate_serial" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "signer_revisions" ADD CONSTRAINT "signer_revisions_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_revisions" ADD CONSTRAINT "signer_revisions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_revisions" ADD CONSTRAINT "signer_revisions_field_id_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_revisions" ADD CONSTRAINT "signer_revisions_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_revisions" ADD CONSTRAINT "signer_revisions_base_revision_id_signer_revisions_id_fk" FOREIGN KEY ("base_revision_id") REFERENCES "public"."signer_revisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signer_keys_email_key" ON "signer_keys" USING btree ("email");--> statement-breakpoint
CREATE INDEX "signer_revisions_document_idx" ON "signer_revisions" USING btree ("document_id","id");--> statement-breakpoint
CREATE INDEX "signer_revisions_workflow_idx" ON "signer_revisions" USING btree ("workflow_id");