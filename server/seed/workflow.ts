// Document formats, types and the status workflow the seed follows.
import type { Rng } from './random.js';

export type Format = 'bulletin' | 'certificate' | 'change' | 'instruction' | 'quote' | 'rfi' | 'submittal';
export type Status =
  | 'draft'
  | 'pending'
  | 'submitted'
  | 'with-consultants'
  | 'issued'
  | 'approved'
  | 'accepted'
  | 'returned'
  | 'resubmitted'
  | 'revision'
  | 'closed'
  | 'locked'
  | 'cancelled'
  | 'needs-work';

export const formatWeights: Record<Format, number> = {
  submittal: 35,
  rfi: 30,
  change: 10,
  instruction: 8,
  quote: 7,
  bulletin: 5,
  certificate: 5,
};

export const statusWeights: Record<Format, Partial<Record<Status, number>>> = {
  submittal: {
    draft: 4,
    pending: 6,
    submitted: 8,
    'with-consultants': 12,
    returned: 6,
    resubmitted: 5,
    revision: 3,
    'needs-work': 3,
    approved: 15,
    closed: 20,
    cancelled: 3,
    locked: 2,
  },
  rfi: {
    draft: 5,
    pending: 5,
    submitted: 10,
    'with-consultants': 12,
    issued: 10,
    'needs-work': 3,
    closed: 40,
    cancelled: 5,
  },
  change: {
    draft: 6,
    pending: 12,
    submitted: 10,
    approved: 20,
    accepted: 15,
    returned: 6,
    revision: 4,
    cancelled: 6,
    locked: 5,
    closed: 10,
  },
  instruction: { draft: 5, pending: 10, issued: 30, accepted: 20, closed: 30, cancelled: 5 },
  bulletin: { draft: 10, issued: 60, closed: 20, cancelled: 10 },
  certificate: { draft: 10, pending: 15, issued: 30, approved: 25, locked: 20 },
  quote: { draft: 10, submitted: 20, pending: 15, accepted: 25, returned: 10, cancelled: 10, closed: 10 },
};

/** The workflow path that leads from draft to each status (the status_changed history). */
export const workflowPath: Record<Status, Status[]> = {
  draft: ['draft'],
  pending: ['draft', 'pending'],
  submitted: ['draft', 'submitted'],
  'with-consultants': ['draft', 'submitted', 'with-consultants'],
  issued: ['draft', 'issued'],
  approved: ['draft', 'submitted', 'with-consultants', 'approved'],
  accepted: ['draft', 'submitted', 'accepted'],
  returned: ['draft', 'submitted', 'with-consultants', 'returned'],
  resubmitted: ['draft', 'submitted', 'with-consultants', 'returned', 'resubmitted'],
  revision: ['draft', 'submitted', 'with-consultants', 'returned', 'revision'],
  'needs-work': ['draft', 'submitted', 'needs-work'],
  closed: ['draft', 'submitted', 'with-consultants', 'approved', 'closed'],
  locked: ['draft', 'submitted', 'approved', 'locked'],
  cancelled: ['draft', 'submitted', 'cancelled'],
};

export const openStatuses = new Set<Status>(['pending', 'submitted', 'with-consultants', 'resubmitted', 'needs-work']);
export const closedStatuses = new Set<Status>(['closed', 'approved', 'accepted']);
export const terminalStatuses = new Set<Status>(['closed', 'cancelled', 'locked', 'accepted', 'approved']);

export const typesByFormat: Record<Format, Record<string, number>> = {
  submittal: { Submittal: 1 },
  rfi: { RFI: 1 },
  change: { CO: 1 },
  instruction: { SI: 7, CD: 3 },
  quote: { Quote: 1 },
  bulletin: { Bulletin: 1 },
  certificate: { Certificate: 6, PC: 2, CA: 2 },
};

export const numberPrefix: Record<string, string> = {
  Submittal: 'SUB',
  RFI: 'RFI',
  CO: 'CO',
  SI: 'SI',
  CD: 'CD',
  Quote: 'QT',
  Bulletin: 'BUL',
  Certificate: 'CERT',
  PC: 'PC',
  CA: 'CA',
};

export const reviewStatusFor = (rng: Rng, status: Status): string | null => {
  if (status === 'draft') return null;
  if (status === 'cancelled') return 'not-reviewed';
  if (status === 'pending' || status === 'submitted' || status === 'with-consultants') return 'pending';
  if (status === 'approved' || status === 'closed' || status === 'locked' || status === 'accepted') {
    return rng.pick([
      'reviewed',
      'reviewed',
      'reviewed-as-noted',
      'reviewed-as-noted',
      'for-record-only',
      'not-required-for-review',
    ]);
  }
  return rng.pick([
    'revise-and-resubmit',
    'revise-and-resubmit',
    'rejected',
    'revise-and-resubmit-for-record',
    'reviewed-as-noted-partial-resubmit',
  ]);
};
