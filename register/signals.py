"""What the register tells the apps above it, without importing them.

`legal_documents` listens to `register_changed` and queues a task that marks the documents
written from a changed activity or vendor stale; the register never imports legal_documents
(layers contract).
"""

from django.dispatch import Signal

# Sent after a ProcessingActivity or Vendor write commits, with keyword arguments
# `organization_id`, `activity_ids` and `vendor_ids` (sets of UUIDs whose revision moved).
register_changed = Signal()
