-- Hand-written: the explorer's deadline guard of migration 0004 served only the earlier embedded engine, which
-- had no statement_timeout; on PostgreSQL alone the explorer is stopped by statement_timeout.
DROP FUNCTION IF EXISTS explorer_within_deadline(integer);
