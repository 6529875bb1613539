CREATE TABLE "idp_token_uses" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_states" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_states_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"state_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"provider" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"binding_hash" text,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"remember_me" boolean DEFAULT false NOT NULL,
	"return_to" text,
	"code_hash" text,
	"code_user_id" integer,
	"code_expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "web_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "web_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"cookie_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"access_token" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_token" text NOT NULL,
	"id_token" text,
	"remember_me" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"refreshing_until" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idp_token_uses" ADD CONSTRAINT "idp_token_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_states" ADD CONSTRAINT "login_states_code_user_id_users_id_fk" FOREIGN KEY ("code_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_sessions" ADD CONSTRAINT "web_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idp_token_uses_expires_idx" ON "idp_token_uses" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "login_states_state_hash_key" ON "login_states" USING btree ("state_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "login_states_code_hash_key" ON "login_states" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "login_states_expires_idx" ON "login_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "web_sessions_cookie_hash_key" ON "web_sessions" USING btree ("cookie_hash");--> statement-breakpoint
CREATE INDEX "web_sessions_user_idx" ON "web_sessions" USING btree ("user_id");