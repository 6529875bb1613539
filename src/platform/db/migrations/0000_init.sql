CREATE TABLE "business_apps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "business_apps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"app_name" text NOT NULL,
	"callback_url" text NOT NULL,
	"secret_hash" text NOT NULL,
	"status" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "memberships_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role_id" integer,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"is_owner" boolean DEFAULT false NOT NULL,
	"used_electronic" integer DEFAULT 0 NOT NULL,
	"used_advanced" integer DEFAULT 0 NOT NULL,
	"used_qualified" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "organizations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"owner_user_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"package_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"package_expires_at" timestamp with time zone NOT NULL,
	"service_plan_active" boolean DEFAULT true NOT NULL,
	"branding" jsonb,
	"logo_blob_key" text,
	"email_settings" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "packages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"credits" integer NOT NULL,
	"credits_price" numeric DEFAULT 0 NOT NULL,
	"discount" numeric DEFAULT 0 NOT NULL,
	"preset" boolean DEFAULT true NOT NULL,
	"duration" integer NOT NULL,
	"service_plan" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"currency_symbol" text DEFAULT '$' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"allow_sharing" boolean DEFAULT true NOT NULL,
	"allow_custom_smtp" boolean DEFAULT false NOT NULL,
	"power_survey_recipient_limit" integer DEFAULT 100 NOT NULL,
	"quota_electronic" integer DEFAULT 1000 NOT NULL,
	"quota_advanced" integer DEFAULT 0 NOT NULL,
	"quota_qualified" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refresh_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"family_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_type" text DEFAULT 'USER' NOT NULL,
	"claims" jsonb,
	"remember_me" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "roles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"signature_settings" jsonb NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_assets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signature_assets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"image" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text,
	"is_guest" boolean DEFAULT false NOT NULL,
	"organization_id" integer,
	"two_factor_enabled" boolean DEFAULT false NOT NULL,
	"totp_secret" text,
	"totp_last_step" integer,
	"locale" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workflow_id" integer NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"sentence" text NOT NULL,
	"user_id" integer,
	"user_name" text DEFAULT '' NOT NULL,
	"recipient_id" integer,
	"ip_address" text DEFAULT '' NOT NULL,
	"access_channel" text DEFAULT 'web' NOT NULL,
	"user_agent" text,
	"status" text DEFAULT '' NOT NULL,
	"consent" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prev_hash" text DEFAULT '' NOT NULL,
	"hash" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workflow_id" integer NOT NULL,
	"field_id" integer,
	"author_user_id" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workflow_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"blob_key" text NOT NULL,
	"size" integer NOT NULL,
	"pages" integer NOT NULL,
	"page_sizes" jsonb NOT NULL,
	"thumbnail_base64" text,
	"sealed_blob_key" text,
	"sealed_size" integer,
	"is_viewed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "field_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "field_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"workflow_id" integer NOT NULL,
	"document_id" integer,
	"field_id" integer,
	"type" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fields" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fields_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workflow_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"recipient_id" integer,
	"page_no" integer NOT NULL,
	"box" jsonb NOT NULL,
	"field_type" text NOT NULL,
	"field_required" boolean DEFAULT false NOT NULL,
	"label" text,
	"value" text,
	"signature_asset_id" integer,
	"styling" jsonb,
	"options" jsonb,
	"filled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "folders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_challenges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "identity_challenges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"recipient_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "recipients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recipients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workflow_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"role" text DEFAULT 'SIGNER' NOT NULL,
	"recipient_order" integer,
	"color" text NOT NULL,
	"use_digital_cert" boolean DEFAULT false NOT NULL,
	"enforce_identity" boolean DEFAULT false NOT NULL,
	"password_hash" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"is_hidden" boolean DEFAULT false NOT NULL,
	"delegated_to_recipient_id" integer,
	"dispatched_at" timestamp with time zone,
	"viewed_at" timestamp with time zone,
	"acted_at" timestamp with time zone,
	"identity_verified_at" timestamp with time zone,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminder_deliveries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reminder_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"recipient_id" integer NOT NULL,
	"slot" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workflows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_user_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"sequence" text NOT NULL,
	"sign_type" text NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"folder_id" integer,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"title" text,
	"message" text,
	"reminder_enabled" boolean DEFAULT false NOT NULL,
	"reminder_interval_days" integer,
	"reminder_offset_minutes" integer,
	"parent_workflow_id" integer,
	"sent_at" timestamp with time zone,
	"status_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"seal_status" text DEFAULT 'NONE' NOT NULL,
	"seal_error" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_folders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "template_folders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"parent_folder_id" integer,
	"role_ids" jsonb,
	"override_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer NOT NULL,
	"owner_user_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"workflow_id" integer NOT NULL,
	"folder_id" integer,
	"recipient_labels" jsonb,
	"reminder_enabled" boolean DEFAULT false NOT NULL,
	"reminder_interval_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"attachments" jsonb,
	"kind" text NOT NULL,
	"workflow_id" integer,
	"recipient_id" integer,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "business_apps_client_id_key" ON "business_apps" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_org_user_key" ON "memberships" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_key" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_org_name_key" ON "roles" USING btree ("organization_id","name");--> statement-breakpoint
CREATE INDEX "signature_assets_user_idx" ON "signature_assets" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "activities_workflow_idx" ON "activities" USING btree ("workflow_id","id");--> statement-breakpoint
CREATE INDEX "comments_workflow_idx" ON "comments" USING btree ("workflow_id","id");--> statement-breakpoint
CREATE INDEX "documents_workflow_idx" ON "documents" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "field_events_workflow_idx" ON "field_events" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "fields_workflow_idx" ON "fields" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "fields_document_idx" ON "fields" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "folders_user_idx" ON "folders" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_challenges_recipient_key" ON "identity_challenges" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "recipients_workflow_idx" ON "recipients" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "recipients_user_idx" ON "recipients" USING btree ("user_id","workflow_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_deliveries_slot_key" ON "reminder_deliveries" USING btree ("recipient_id","slot");--> statement-breakpoint
CREATE INDEX "workflows_owner_idx" ON "workflows" USING btree ("owner_user_id","id");--> statement-breakpoint
CREATE INDEX "workflows_owner_status_idx" ON "workflows" USING btree ("owner_user_id","status");--> statement-breakpoint
CREATE INDEX "workflows_parent_idx" ON "workflows" USING btree ("parent_workflow_id");--> statement-breakpoint
CREATE INDEX "workflows_folder_idx" ON "workflows" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "template_folders_org_idx" ON "template_folders" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "templates_org_idx" ON "templates" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("status","next_attempt_at");