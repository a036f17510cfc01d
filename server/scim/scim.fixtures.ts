// Provisioning requests as identity providers send them, transcribed from their published SCIM documentation.
// Only the e-mail addresses' domains and the ids are made unique per test (`unique`); bodies, op spellings,
// value types and paths are as published. (Transcribed by hand: this machine has no network to fetch the pages.)
//
// Microsoft Entra ID: "Tutorial: Develop and plan provisioning for a SCIM endpoint in Microsoft Entra ID",
//   https://learn.microsoft.com/en-us/entra/identity/app-provisioning/use-scim-to-provision-users-and-groups
//   (section "User Operations": Create User, Get User by query, Update User [Multi-valued properties], Update User
//   [Single-valued properties], Disable User, Delete User), and "Known issues and resolutions with SCIM 2.0
//   protocol compliance of the Microsoft Entra user provisioning service",
//   https://learn.microsoft.com/en-us/entra/identity/app-provisioning/application-provisioning-config-problem-scim-compatibility
//   (the PATCH forms Entra sends without the aadOptscim062020 flag: `"op": "Replace"` capitalised and
//   `"value": "False"` as a string for active, and a no-path operation whose value object has dotted keys).
// Okta: "SCIM 2.0 protocol reference", https://developer.okta.com/docs/api/openapi/okta-scim/guides/scim-20
//   (Create the user, Retrieve the user by userName filter with startIndex/count, Update a specific user (PUT),
//   Update a specific user (PATCH) to deactivate and reactivate: `{"op":"replace","value":{"active":false}}`).

/** Entra ID's requests for one person; `n` makes the names unique. */
export const entra = (n: string) => ({
  // Get User by query (Entra asks before it creates): GET /Users?filter=userName eq "…"
  filterByUserName: `userName eq "Test_User_${n}"`,
  create: {
    schemas: [
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ],
    externalId: `0a21f0f2-8d2a-4f8e-bf98-${n}`,
    userName: `Test_User_${n}`,
    active: true,
    emails: [{ primary: true, type: 'work', value: `Test_User_${n}@testuser.com` }],
    meta: { resourceType: 'User' },
    name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
    roles: [],
  },
  // Update User [Multi-valued properties]
  updateMultiValued: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: `updatedEmail_${n}@microsoft.com` },
      { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
    ],
  },
  // Update User [Single-valued properties]
  updateSingleValued: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'Replace', path: 'userName', value: `5b50642d-79fc-4410-9e90-${n}@testuser.com` }],
  },
  // Disable User, in the form Entra sends without the compliance flag: "Replace", and "False" as a string.
  disable: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
  },
  enable: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
  },
  // The compliant form (with aadOptscim062020): "replace", a boolean.
  disableCompliant: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', path: 'active', value: false }],
  },
  // Entra's no-path form: one operation whose value carries several attributes, names as dotted paths.
  noPathAdd: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [
      {
        op: 'Add',
        value: { displayName: 'Babs Jensen', 'name.givenName': 'Barbara', 'name.familyName': 'Jensen' },
      },
    ],
  },
  // Entra sends "Add" for an e-mail change (Microsoft Q&A, "Entra ID patch sending Add instead of Replace").
  addEmail: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [
      { op: 'Replace', path: 'title', value: 'tester' },
      { op: 'Add', path: 'emails[type eq "work"].value', value: `added_${n}@joe.com` },
    ],
  },
});

/** Okta's requests for one person. */
export const okta = (n: string) => ({
  filterByUserName: `userName eq "test.user.${n}@okta.local"`,
  create: {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: `test.user.${n}@okta.local`,
    name: { givenName: 'Test', familyName: 'User' },
    emails: [{ primary: true, value: `test.user.${n}@okta.local`, type: 'work' }],
    displayName: 'Test User',
    locale: 'en-US',
    externalId: `00ujl29u0le5T6Aj10h7${n}`,
    groups: [],
    password: '1mz050nq',
    active: true,
  },
  // PUT with the whole resource, as Okta updates a profile (here: another family name).
  replace: (id: string) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id,
    userName: `test.user.${n}@okta.local`,
    name: { givenName: 'Another', familyName: 'User' },
    emails: [{ primary: true, value: `test.user.${n}@okta.local`, type: 'work' }],
    displayName: 'Another User',
    locale: 'en-US',
    externalId: `00ujl29u0le5T6Aj10h7${n}`,
    groups: [],
    active: true,
    meta: { resourceType: 'User' },
  }),
  deactivate: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', value: { active: false } }],
  },
  reactivate: {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', value: { active: true } }],
  },
});
