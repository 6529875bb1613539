CREATE TABLE "remote_signature_preparations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "remote_signature_preparations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"authorization_id" text NOT NULL,
	"code_verifier" text NOT NULL,
	"workflow_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"field_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"revision_id" integer NOT NULL,
	"hash" text NOT NULL,
	"signed_attributes" text NOT NULL,
	"credential_id" text NOT NULL,
	"qualifier" text NOT NULL,
	"key_algorithm" text NOT NULL,
	"sign_algo" text NOT NULL,
	"certificate" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "remote_signature_preparations" ADD CONSTRAINT "remote_signature_preparations_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_signature_preparations" ADD CONSTRAINT "remote_signature_preparations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_signature_preparations" ADD CONSTRAINT "remote_signature_preparations_field_id_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_signature_preparations" ADD CONSTRAINT "remote_signature_preparations_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_signature_preparations" ADD CONSTRAINT "remote_signature_preparations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_signature_preparations" ADD CONSTRAINT "remote_signature_preparations_revision_id_signer_revisions_id_fk" FOREIGN KEY ("revision_id") REFERENCES "public"."signer_revisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remote_signature_preparations_authorization_idx" ON "remote_signature_preparations" USING btree ("authorization_id");--> statement-breakpoint
CREATE INDEX "remote_signature_preparations_field_idx" ON "remote_signature_preparations" USING btree ("workflow_id","field_id");