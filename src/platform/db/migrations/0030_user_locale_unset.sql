-- An account's locale is null until it sets one (GET answers en), so a workflow's mails can fall back to its
-- organization owner's language (docs/mail-and-webhooks.md "Mail languages"). Accounts made before keep their en.
ALTER TABLE "users" ALTER COLUMN "locale" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "locale" DROP NOT NULL;
