-- The audit trail's append (modules/activities/activities.service.ts) takes the workflow's chain lock and then reads
-- the chain's newest hash: one round trip instead of two. The read must see what the previous holder of the lock
-- committed while this transaction waited for it: a VOLATILE function takes a fresh snapshot for each query it runs
-- (under READ COMMITTED), where a single statement doing both would read with the snapshot taken before the wait.
-- 41 is the advisory lock space of the chains (activities.repo.ts ACTIVITY_LOCK_SPACE; lockChains takes the same).
CREATE FUNCTION lock_activity_chain(p_workflow_id integer) RETURNS text
LANGUAGE plpgsql VOLATILE
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41, p_workflow_id);
  RETURN (SELECT a.hash FROM activities a WHERE a.workflow_id = p_workflow_id ORDER BY a.id DESC LIMIT 1);
END
$$;
