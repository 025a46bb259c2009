"""One model for asynchronous work: a lease on the row that carries the work.

Every kind of background work (a webhook delivery, a documentation package, a document
job, an asset's processing, a register import) is a row that inherits `LeasedWork` and is
described once by a `WorkKind`. The life of one piece of work:

* `queue` (web, inside the transaction that creates or changes the row): the row is
  `queued` and its task is sent once the transaction commits. A broker that refuses the
  task is logged and changes nothing: the row stays queued and the sweeper sends it again
  (one policy for every kind; a row queued too long ends failed by the kind's own rule).
* `claim` (worker): takes the lease of one attempt (a token, an expiry, one more attempt).
  Work that is idle (done, or never queued) is not run; a lease still held raises
  `LeaseHeldError` with the seconds until it expires; work whose attempts are spent ends failed.
* `holding` + `finish` (worker): only the holder of the lease ends the work, in one
  transaction with the kind's own outcome (completed, failed, retried).
* `sweep` (beat, one task for every kind): an expired lease is queued again, or ends
  failed once its attempts are spent; a queued row whose task was lost is sent again.

The tasks read: load by id, claim, call the service, finish (docs/ARCHITECTURE.md).
"""
