-- The document list's search (a substring of the workflow name, any case) uses a trigram index on lower(name):
-- pg_trgm ships with PostgreSQL's contrib (and with PGlite, loaded by platform/db/client.ts); it is a trusted
-- extension, so a database owner without superuser may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
