CREATE TABLE "organization_branding" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"primary_color" text,
	"sender_name" text,
	"logo_blob_key" text,
	"updated_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "package_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer NOT NULL,
	"action" text NOT NULL,
	"from_package_id" integer NOT NULL,
	"to_package_id" integer NOT NULL,
	"credits_before" integer NOT NULL,
	"credits_after" integer NOT NULL,
	"expires_before" timestamp with time zone NOT NULL,
	"expires_after" timestamp with time zone NOT NULL,
	"by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "business_apps" ADD COLUMN "webhook_secret" text;--> statement-breakpoint
ALTER TABLE "organization_branding" ADD CONSTRAINT "organization_branding_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_branding" ADD CONSTRAINT "organization_branding_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_changes" ADD CONSTRAINT "package_changes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_changes" ADD CONSTRAINT "package_changes_from_package_id_packages_id_fk" FOREIGN KEY ("from_package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_changes" ADD CONSTRAINT "package_changes_to_package_id_packages_id_fk" FOREIGN KEY ("to_package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_changes" ADD CONSTRAINT "package_changes_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_branding_logo_idx" ON "organization_branding" USING btree ("logo_blob_key");--> statement-breakpoint
CREATE INDEX "package_changes_org_idx" ON "package_changes" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "business_apps" ADD CONSTRAINT "business_apps_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "business_apps_org_name_key" ON "business_apps" USING btree ("organization_id",lower("app_name"));--> statement-breakpoint
-- The platform's preset packages (SPEC.md "Package"), seeded here rather than at start-up. An installation that
-- already has them (seeded by the start-up code this replaces) keeps its rows; only a missing preset is added.
INSERT INTO "packages" ("name", "description", "credits", "credits_price", "discount", "preset", "duration", "service_plan", "status", "currency_symbol", "is_default", "allow_sharing", "allow_custom_smtp", "power_survey_recipient_limit", "quota_electronic", "quota_advanced", "quota_qualified", "cloud_providers")
SELECT v.name, v.description, v.credits, v.credits_price, v.discount, true, v.duration, v.service_plan, 'ACTIVE', '$',
  v.is_default AND NOT EXISTS (SELECT 1 FROM "packages" d WHERE d."is_default"), v.allow_sharing, v.allow_custom_smtp, v.survey_limit, v.quota_electronic, v.quota_advanced, v.quota_qualified, v.cloud_providers
FROM (VALUES
  (1, 'Starter', 'Free plan for individuals: 50 envelopes a year', 50, 0::numeric, 0::numeric, 365, 'FREE', true, true, false, 25, 1000, 0, 0, '{}'::text[]),
  (2, 'Business', 'For teams: 1000 envelopes a year, custom mail routing, cloud import', 1000, 0.5::numeric, 0::numeric, 365, 'BUSINESS', false, true, true, 500, 1000, 0, 0, '{DRIVE,BOX}'::text[]),
  (3, 'Enterprise', 'High volume: 10000 envelopes a year, advanced and qualified signatures', 10000, 0.3::numeric, 10::numeric, 365, 'ENTERPRISE', false, true, true, 5000, 1000, 1000, 1000, '{DRIVE,BOX}'::text[])
) AS v(position, name, description, credits, credits_price, discount, duration, service_plan, is_default, allow_sharing, allow_custom_smtp, survey_limit, quota_electronic, quota_advanced, quota_qualified, cloud_providers)
WHERE NOT EXISTS (SELECT 1 FROM "packages" p WHERE p."preset" AND p."name" = v.name)
ORDER BY v.position;
--> statement-breakpoint
-- Presets seeded by the old start-up code had no cloud providers; the paid ones grant both.
UPDATE "packages" SET "cloud_providers" = '{DRIVE,BOX}'::text[] WHERE "preset" AND "name" IN ('Business', 'Enterprise') AND "cloud_providers" = '{}'::text[];
