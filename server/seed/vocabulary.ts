// Word lists for plausible construction data, plain data and no logic: over 400 lines long because the lists are.

export const organizationNames = [
  'Harbor Line Construction',
  'Ridgeline Builders',
  'Northgate General Contractors',
  'Cobalt Street Developments',
  'Meridian Civil Group',
];

export const projectNames = [
  'Pier 9 Terminal',
  'Dockside Offices',
  'Summit Hospital East Wing',
  'Riverside Library',
  'Maple Court Residences',
  'Eastside Transit Hub',
  'Lakeshore Elementary School',
  'Granite Tower',
  'Willow Creek Senior Living',
  'Union Square Parking Structure',
  'Airport Cargo Building 4',
  'Civic Center Annex',
  'Harborview Hotel',
  'Northfield Data Center',
  'Cedar Ridge Medical Office',
  'Westport Fire Station 12',
  'Old Mill Lofts',
  'Bayfront Convention Hall',
  'Kingsway Retail Podium',
  'Southpoint Water Treatment Plant',
];

export const firstNames = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Mateo',
  'Sophia',
  'Lucas',
  'Mia',
  'Ethan',
  'Amelia',
  'James',
  'Harper',
  'Daniel',
  'Priya',
  'Arjun',
  'Chloe',
  'Samuel',
  'Grace',
  'Omar',
  'Hannah',
  'Diego',
  'Leah',
  'Kenji',
  'Fatima',
  'Marcus',
  'Ingrid',
  'Tomás',
  'Zoe',
  'Victor',
  'Nadia',
  'Patrick',
  'Elena',
  'Hugo',
  'Aisha',
  'Connor',
];

export const lastNames = [
  'Anderson',
  'Nguyen',
  'Patel',
  'Garcia',
  'Okafor',
  'Kowalski',
  'Johansson',
  'Murphy',
  'Rossi',
  'Chen',
  'Silva',
  'Hughes',
  'Fischer',
  'Tanaka',
  'Brennan',
  'Lindqvist',
  'Moreau',
  'Haddad',
  'Walsh',
  'Kim',
  'Schmidt',
  'Duarte',
  'Novak',
  'Campbell',
  'Ibrahim',
  'Sato',
  'Reyes',
  'Olsen',
  'Sullivan',
  'Mendes',
];

export const staffTitles = [
  'Project Manager',
  'Senior Project Manager',
  'Project Engineer',
  'Assistant Project Manager',
  'Superintendent',
  'Document Controller',
  'Site Engineer',
  'Quality Manager',
  'Safety Manager',
  'Estimator',
  'Construction Manager',
];

export const consultantTypes = [
  { type: 'Architect', suffixes: ['Architects', 'Design Studio', 'Architecture'] },
  { type: 'Structural Engineer', suffixes: ['Structural Engineers', 'Structures'] },
  { type: 'MEP Engineer', suffixes: ['MEP Consulting', 'Building Services'] },
  { type: 'Civil Engineer', suffixes: ['Civil Consultants', 'Engineering'] },
  { type: 'Landscape Architect', suffixes: ['Landscape Studio', 'Landscapes'] },
  { type: 'Fire Engineer', suffixes: ['Fire Protection Engineers', 'Fire Consulting'] },
] as const;

export const companyStems = [
  'Beacon',
  'Atlas',
  'Keystone',
  'Sterling',
  'Halcyon',
  'Pinnacle',
  'Ironbridge',
  'Clearwater',
  'Redwood',
  'Northstar',
  'Bluestone',
  'Fairmont',
  'Ashford',
  'Crestline',
  'Silverline',
  'Granite Peak',
  'Whitlock',
  'Marlow',
  'Everett',
  'Kinsley',
  'Harlow',
  'Brightwater',
  'Oakhurst',
  'Thornbury',
];

export const subcontractorTrades = [
  'Concrete',
  'Steel',
  'Glazing',
  'Roofing',
  'Electrical',
  'Mechanical',
  'Plumbing',
  'Drywall',
  'Flooring',
  'Elevators',
  'Fire Protection',
  'Masonry',
];

/** CSI MasterFormat divisions with typical submittal items. */
export const csiDivisions: { number: string; title: string; items: string[] }[] = [
  {
    number: '03',
    title: 'Division 03 - Concrete',
    items: [
      'Concrete mix design',
      'Reinforcing steel shop drawings',
      'Post-tensioning shop drawings',
      'Formwork layout',
    ],
  },
  { number: '04', title: 'Division 04 - Masonry', items: ['CMU product data', 'Brick samples', 'Mortar mix design'] },
  {
    number: '05',
    title: 'Division 05 - Metals',
    items: [
      'Structural steel shop drawings',
      'Metal deck product data',
      'Stair and railing shop drawings',
      'Anchor bolt layout',
    ],
  },
  {
    number: '06',
    title: 'Division 06 - Wood, Plastics, and Composites',
    items: ['Millwork shop drawings', 'Plywood sheathing product data'],
  },
  {
    number: '07',
    title: 'Division 07 - Thermal and Moisture Protection',
    items: ['Roofing membrane product data', 'Air barrier system', 'Firestopping systems', 'Sealant color samples'],
  },
  {
    number: '08',
    title: 'Division 08 - Openings',
    items: ['Curtain wall shop drawings', 'Door hardware schedule', 'Hollow metal frames', 'Storefront system'],
  },
  {
    number: '09',
    title: 'Division 09 - Finishes',
    items: ['Ceramic tile samples', 'Acoustic ceiling tile', 'Paint color schedule', 'Resilient flooring'],
  },
  {
    number: '10',
    title: 'Division 10 - Specialties',
    items: ['Toilet partitions', 'Signage package', 'Fire extinguisher cabinets'],
  },
  {
    number: '14',
    title: 'Division 14 - Conveying Equipment',
    items: ['Elevator shop drawings', 'Escalator product data'],
  },
  {
    number: '21',
    title: 'Division 21 - Fire Suppression',
    items: ['Sprinkler layout drawings', 'Fire pump product data'],
  },
  {
    number: '22',
    title: 'Division 22 - Plumbing',
    items: ['Plumbing fixtures', 'Domestic water heaters', 'Backflow preventers'],
  },
  {
    number: '23',
    title: 'Division 23 - HVAC',
    items: ['Air handling units', 'VAV boxes', 'Ductwork shop drawings', 'Chiller product data'],
  },
  {
    number: '26',
    title: 'Division 26 - Electrical',
    items: ['Switchgear shop drawings', 'Lighting fixtures', 'Panelboards', 'Emergency generator'],
  },
  { number: '27', title: 'Division 27 - Communications', items: ['Structured cabling', 'Telecom room layout'] },
  {
    number: '28',
    title: 'Division 28 - Electronic Safety and Security',
    items: ['Fire alarm system', 'Access control hardware'],
  },
  { number: '31', title: 'Division 31 - Earthwork', items: ['Shoring design', 'Dewatering plan'] },
  {
    number: '32',
    title: 'Division 32 - Exterior Improvements',
    items: ['Paving mix design', 'Site furnishings', 'Irrigation system'],
  },
];

export const rfiTopics = [
  'Conflict between structural beam and duct routing at grid C/4',
  'Missing dimension for stair 2 landing',
  'Clarify waterproofing detail at podium slab edge',
  'Door hardware set for room 214 not scheduled',
  'Embed plate location at level 3 curtain wall',
  'Fire rating of corridor partition at level 2',
  'Slab depression for tile in accessible restrooms',
  'Roof drain location conflicts with mechanical curb',
  'Elevator pit depth differs between architectural and structural drawings',
  'Rebar congestion at transfer beam TB-3',
  'Ceiling height in lobby conflicts with sprinkler main',
  'Clarify finish for exposed concrete columns',
  'Confirm generator pad dimensions',
  'Handrail extension at ramp landing',
  'Foundation bearing elevation at grid A/1 after site excavation',
  'Window head detail at brick veneer',
];

export const rfiQuestions = [
  'The architectural and structural drawings show different elevations. Please confirm which governs.',
  'Please confirm the required dimension; the detail references a section that is not included in the set.',
  'Field conditions differ from the drawings. Please advise on the acceptable alternative.',
  'The specification section and the schedule conflict. Which requirement applies?',
  'Please provide the missing detail so fabrication can proceed without delay.',
  'Can the contractor substitute the specified product with an approved equal of the same rating?',
];

export const rfiAnswers = [
  'Structural drawings govern. Revise architectural elevation accordingly.',
  'Provide 1200 mm clear dimension as shown in detail 5/A-501.',
  'Alternative accepted provided the fire rating is maintained.',
  'Follow the specification; the schedule will be corrected in the next bulletin.',
  'See attached sketch SK-014 for the revised detail.',
];

export const changeReasons = [
  'Owner-requested scope addition',
  'Unforeseen site condition',
  'Design error or omission',
  'Code compliance requirement from the authority having jurisdiction',
  'Value engineering proposal',
  'Schedule acceleration',
  'Material substitution due to supply chain delay',
];

export const changeTitles = [
  'Additional structural steel at mezzanine',
  'Relocate electrical room door',
  'Upgrade lobby flooring to terrazzo',
  'Extra rock excavation at footing F-12',
  'Add fire dampers at shaft penetrations',
  'Revise parking striping layout',
  'Additional roof insulation per energy code',
  'Replace specified light fixtures with available alternative',
];

export const instructionTitles = [
  'Proceed with revised door swing at corridor 3',
  'Stop work on east stair pending inspection',
  'Install additional blocking for wall-mounted equipment',
  'Adjust slab edge per revised survey',
  'Protect existing trees along north boundary',
];

export const bulletinTitles = [
  'Revised reflected ceiling plans',
  'Updated door schedule',
  'Addendum to specifications section 08 71 00',
  'Revised site utility layout',
  'Structural revisions to level 4 framing',
];

export const certificateTitles = [
  'Progress certificate',
  'Certificate of substantial completion',
  'Practical completion certificate',
  'Certificate of occupancy inspection',
];

export const quoteTitles = [
  'Quote for additional site lighting',
  'Pricing for alternate roofing system',
  'Quote for temporary weather protection',
  'Pricing for extended site security',
];

export const commentBodies = [
  'Please review before Friday so we can release for fabrication.',
  'Consultant response received, updating the log.',
  'The subcontractor has asked for an extension on this one.',
  'Site confirmed the dimensions this morning.',
  'Attached the marked-up drawing from the walkthrough.',
  'This is holding up the pour sequence, please prioritize.',
  'Returned with comments; resubmittal expected next week.',
  'Owner approved verbally, waiting for the signed copy.',
];

export const consultantResponses = [
  'Reviewed. No exceptions taken.',
  'Reviewed as noted: provide anchorage calculations stamped by a licensed engineer.',
  'Revise and resubmit: product data does not show the specified fire rating.',
  'Rejected: the substitution does not meet the acoustic performance requirement.',
  'Reviewed for general conformance with the design intent only.',
  'Answered: see the revised detail issued with bulletin 4.',
];

export const findingTemplates = {
  spec: [
    {
      severity: 'mismatch',
      title: 'Fire rating does not match specification',
      key: 'fire-rating',
      section: '07 84 00',
    },
    {
      severity: 'mismatch',
      title: 'Concrete strength below specified 35 MPa',
      key: 'concrete-strength',
      section: '03 30 00',
    },
    {
      severity: 'mismatch',
      title: 'Glazing U-value exceeds the specified maximum',
      key: 'glazing-u-value',
      section: '08 44 13',
    },
    {
      severity: 'partial',
      title: 'Warranty period only partially stated',
      key: 'warranty-period',
      section: '01 78 36',
    },
    {
      severity: 'missing',
      title: 'Seismic anchorage calculations not included',
      key: 'seismic-anchorage',
      section: '13 48 00',
    },
    {
      severity: 'match',
      title: 'Product finish matches the specified color',
      key: 'finish-color',
      section: '09 91 23',
    },
  ],
  quality: [
    { severity: 'required', title: 'Submittal is not stamped by the contractor', key: 'contractor-stamp', section: '' },
    { severity: 'required', title: 'Shop drawings are missing dimensions', key: 'missing-dimensions', section: '' },
    {
      severity: 'recommended',
      title: 'Product data sheet is older than two years',
      key: 'stale-product-data',
      section: '',
    },
    {
      severity: 'info',
      title: 'Cover sheet lists the wrong specification section',
      key: 'cover-sheet-section',
      section: '',
    },
  ],
} as const;

export const reportObservations = [
  'Formwork for level 3 slab completed on the north half; rebar inspection scheduled.',
  'Curtain wall installation progressing on the east elevation; two panels damaged in delivery.',
  'Crane inspection completed, no deficiencies. Site housekeeping improved.',
  'Excavation reached design depth at the elevator pit; groundwater lower than expected.',
  'Mechanical rough-in complete on level 2; ceiling close-up inspections booked.',
];

export const weatherConditions = ['Sunny, 22°C', 'Overcast, 15°C', 'Light rain, 11°C', 'Windy, 18°C', 'Clear, 8°C'];

export const meetingSections = [
  'Safety',
  'Schedule review',
  'Open RFIs',
  'Submittal status',
  'Quality issues',
  'Change orders',
  'Owner items',
];

/** Drawing sheets: discipline prefix, sheet numbers and titles. Shared by all projects, so the
 *  same sheet and revision reuse the same PDF bytes. */
export const drawingSheets: { discipline: string; number: string; title: string }[] = [
  ...['101', '102', '103', '104', '105', '201', '202', '301', '302', '401', '501', '502', '601', '1010', '1011'].map(
    (n, i) => ({
      discipline: 'Architectural',
      number: `A-${n}`,
      title: [
        'Ground floor plan',
        'Level 2 floor plan',
        'Level 3 floor plan',
        'Roof plan',
        'Reflected ceiling plan',
        'North and south elevations',
        'East and west elevations',
        'Building sections',
        'Wall sections',
        'Stair details',
        'Door schedule',
        'Window schedule',
        'Enlarged restroom plans',
        'Site plan',
        'Site details',
      ][i]!,
    }),
  ),
  ...['001', '101', '102', '103', '201', '202', '301', '401', '501', '502'].map((n, i) => ({
    discipline: 'Structural',
    number: `S-${n}`,
    title: [
      'General notes',
      'Foundation plan',
      'Level 2 framing plan',
      'Roof framing plan',
      'Column schedule',
      'Beam schedule',
      'Sections',
      'Connection details',
      'Typical details',
      'Shear wall elevations',
    ][i]!,
  })),
  ...['101', '102', '201', '301', '401'].map((n, i) => ({
    discipline: 'Mechanical',
    number: `M-${n}`,
    title: [
      'HVAC plan ground floor',
      'HVAC plan level 2',
      'Mechanical schedules',
      'Mechanical details',
      'Controls diagrams',
    ][i]!,
  })),
  ...['101', '102', '201', '301', '601'].map((n, i) => ({
    discipline: 'Electrical',
    number: `E-${n}`,
    title: [
      'Lighting plan ground floor',
      'Power plan ground floor',
      'Single-line diagram',
      'Panel schedules',
      'Fire alarm riser',
    ][i]!,
  })),
  ...['101', '201', '301'].map((n, i) => ({
    discipline: 'Plumbing',
    number: `P-${n}`,
    title: ['Plumbing plan ground floor', 'Plumbing risers', 'Plumbing details'][i]!,
  })),
  ...['100', '101', '200', '500'].map((n, i) => ({
    discipline: 'Civil',
    number: `C-${n}`,
    title: ['Existing conditions', 'Grading plan', 'Utility plan', 'Civil details'][i]!,
  })),
  ...['101', '102', '103', '104', '105', '106', '107', '108'].map((n, i) => ({
    discipline: 'Fire Protection',
    number: `FP-${n}`,
    title: `Sprinkler layout zone ${i + 1}`,
  })),
];

export const supportIssueSeeds = [
  {
    title: 'Drawing bundle missing a sheet',
    description: 'A customer reported that the bundle skipped sheet A-104.',
    approach: 'Check skippedDrawings in the bundle result; the latest revision file was empty. Ask them to re-upload.',
  },
  {
    title: 'E-mails to a consultant bounce',
    description: 'Dispatches to one consultant domain bounce with a permanent bounce.',
    approach: 'Look up the Email record by mailerMessageId; a permanent bounce means the address must be corrected.',
  },
  {
    title: 'API key returns 403 on a project',
    description: 'An integration key receives Insufficient permissions for one project.',
    approach: 'Compare the key scopes with the project; project-scoped keys see only the listed projects.',
  },
];
