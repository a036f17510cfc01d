-- `dispatch.created` is no longer an event an endpoint can subscribe to (nothing in the API creates dispatches):
-- endpoints that listed it keep their other events.
UPDATE "webhooks" SET "events" = array_remove("events", 'dispatch.created') WHERE 'dispatch.created' = ANY("events");
