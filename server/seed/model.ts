// Shapes shared by the seed's generators, and small helpers.
import type { Rng } from './random.js';
import type { SeedAccount } from './shapes.js';
import type { Format, Status } from './workflow.js';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

export interface Person {
  id: string | null;
  name: string;
  email: string;
  company: string;
}

export interface OrgPlan {
  id: string;
  name: string;
  domain: string;
  people: Person[];
  accounts: SeedAccount[];
}

export interface ProjectPlan {
  id: string;
  name: string;
  code: string;
  org: OrgPlan;
}

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
export const dateOnly = (d: Date) => d.toISOString().slice(0, 10);
export const hex = (rng: Rng, words: number) =>
  Array.from({ length: words }, () => rng.next().toString(16).padStart(8, '0')).join('');

export interface DocPlan {
  id: string;
  number: string;
  title: string;
  format: Format;
  type: string;
  status: Status;
  createdAt: Date;
  distribution: Person[];
  consultants: Person[];
}

export interface Consultant extends Person {
  type: string;
}

/** An ASCII e-mail local part from a name (accents dropped). */
export const asciiEmail = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
