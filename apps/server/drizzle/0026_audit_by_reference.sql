-- hand-written: audit entries describe what was done to whom by reference (ids, field names), never by
-- copying message text or a contact's data (the erasure must reach every copy, and docs/lgpd.md promises
-- kept entries hold no message text). Entries written before this change are brought to the same form:
-- a deleted message keeps its ticket, source and kind, not its text; a contact's change keeps the names
-- of the fields changed, not their values; a deleted contact keeps its id. The append-only trigger is
-- off for these statements only.
ALTER TABLE "audit_entries" DISABLE TRIGGER "audit_entries_append_only";
--> statement-breakpoint
UPDATE "audit_entries" SET "before" = "before" - 'body' WHERE "action" = 'message.delete' AND "before" ->> 'body' IS NOT NULL;
--> statement-breakpoint
UPDATE "audit_entries" SET
  "after" = jsonb_build_object('fields', coalesce((SELECT jsonb_agg(k ORDER BY k) FROM jsonb_object_keys(CASE WHEN jsonb_typeof("before") = 'object' THEN "before" ELSE '{}'::jsonb END) AS k), '[]'::jsonb))
    || CASE WHEN jsonb_typeof("after" -> 'extraInfo') = 'array'
         THEN jsonb_build_object('extraInfo', coalesce((SELECT jsonb_agg(DISTINCT e ->> 'name') FROM jsonb_array_elements("after" -> 'extraInfo') AS e), '[]'::jsonb))
         ELSE '{}'::jsonb END,
  "before" = NULL
WHERE "action" = 'contact.update';
--> statement-breakpoint
UPDATE "audit_entries" SET "before" = NULL WHERE "action" = 'contact.delete' AND "before" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "audit_entries" ENABLE TRIGGER "audit_entries_append_only";
