// How much data each scale makes, and the sign-in accounts the seed creates.

export type SeedScale = 'demo' | 'large';

export interface ScaleShape {
  organizations: number;
  projectsPerOrg: number;
  usersPerOrg: number;
  documentsPerProject: number;
  drawingsPerProject: number;
  /** Minimum activity rows per project; natural events are topped up with file uploads and edits. */
  activityPerProject: number;
  /** Exact number of per-recipient e-mail records per project. */
  emailsPerProject: number;
  /** Share of documents that get an issue dispatch (the rest of the e-mail budget goes to forwards and invites). */
  dispatchRate: number;
  reportSeriesPerProject: number;
  filedEmailsPerProject: number;
}

export const scales: Record<SeedScale, ScaleShape> = {
  demo: {
    organizations: 2,
    projectsPerOrg: 2,
    usersPerOrg: 12,
    documentsPerProject: 250,
    drawingsPerProject: 15,
    activityPerProject: 1_250,
    emailsPerProject: 600,
    dispatchRate: 0.6,
    reportSeriesPerProject: 6,
    filedEmailsPerProject: 40,
  },
  large: {
    organizations: 5,
    projectsPerOrg: 8,
    usersPerOrg: 40,
    documentsPerProject: 5_000,
    drawingsPerProject: 50,
    activityPerProject: 25_000,
    emailsPerProject: 5_000,
    dispatchRate: 0.25,
    reportSeriesPerProject: 12,
    filedEmailsPerProject: 250,
  },
};

/** Sign-in accounts the seed creates (an org admin and a member per org), with the passwords it was given. */
export interface SeedAccount {
  userId: string;
  email: string;
  name: string;
  password: string;
  role: 'admin' | 'member';
  orgId: string;
}

/** The sign-in accounts' passwords: one per role, made for each seeded database (never published). */
export interface SeedPasswords {
  admin: string;
  member: string;
}
