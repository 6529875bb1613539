-- Foreign keys for every reference between the tables that existed before this migration (tables added with it or
-- later declare theirs in the schema). DEFERRABLE INITIALLY DEFERRED: checked at commit, so a transaction may
-- write rows in any order (a user and their organization refer to each other). The audit trail's actor columns
-- (activities.user_id, activities.recipient_id) have none on purpose: an activity row is immutable evidence whose
-- hash covers those values, so nothing may cascade into it or be blocked by it; fields.signature_asset_id neither: a
-- field keeps the id of the library entry it was signed with after the signer deletes the entry (docs/decisions.md).
ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_owner_user_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "packages"("id") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_recipient_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "recipients"("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_owner_user_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_folder_id_fk" FOREIGN KEY ("folder_id") REFERENCES "folders"("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_delegated_to_recipient_id_fk" FOREIGN KEY ("delegated_to_recipient_id") REFERENCES "recipients"("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "fields" ADD CONSTRAINT "fields_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "fields" ADD CONSTRAINT "fields_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "fields" ADD CONSTRAINT "fields_recipient_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "recipients"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_field_id_fk" FOREIGN KEY ("field_id") REFERENCES "fields"("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_user_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "users"("id") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "identity_challenges" ADD CONSTRAINT "identity_challenges_recipient_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "recipients"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "recipient_password_passes" ADD CONSTRAINT "recipient_password_passes_recipient_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "recipients"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD CONSTRAINT "reminder_deliveries_recipient_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "recipients"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
