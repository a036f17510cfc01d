-- Hand-written: the explorer's run-time bound on PGlite, which ignores statement_timeout (no timer
-- signals in WebAssembly). The explorer adds `explorer_within_deadline(ms)` as the first filter of its
-- statements there; it raises query_canceled (57014, as a statement timeout would) once the statement
-- has run longer than `timeout_ms`. VOLATILE so it runs per row, not once; COST 0.01 so the planner
-- evaluates it before any other filter (filters run cheapest first).
CREATE FUNCTION explorer_within_deadline(timeout_ms integer) RETURNS boolean
LANGUAGE plpgsql VOLATILE COST 0.01 AS $$
BEGIN
  IF clock_timestamp() > statement_timestamp() + timeout_ms * interval '1 millisecond' THEN
    RAISE EXCEPTION 'explorer query ran longer than % ms', timeout_ms USING ERRCODE = 'query_canceled';
  END IF;
  RETURN true;
END
$$;
