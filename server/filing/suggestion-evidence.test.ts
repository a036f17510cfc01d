import { describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { createProject } from '../organizations/service.js';
import { AI_ASK_BELOW, POINTS_AT } from './service.js';
import { expectOfferedInDoubt, fileEmail as file, suggest } from './suggestion-calls.fixtures.js';

const signature = [
  'Megan Hart',
  'Project Manager',
  'Buildco Pty Ltd',
  'Level 4, 220 Kings Way, South Melbourne VIC 3205',
  'M 0412 558 901 | T 03 9682 4410',
  'Buildco acknowledges the Traditional Owners of the lands on which we build.',
].join('\n');

describe('what counts in a suggestion', () => {
  it('a sender on two projects is placed by what she writes now, not by the signature she puts on every e-mail', async () => {
    const topics = [
      'Riser penetrations on level 3 need confirming before the pour.',
      'Unit switchboards arrive on the hoist on the 16th.',
      'Level 6 handover needs the commissioning sheets.',
      'Lift motor room needs a split system, please price.',
      'Corridor fire dampers on level 5 need moving.',
    ];
    for (const [i, text] of topics.entries())
      await file(f.projectA1.id, {
        subject: `Update ${i}`,
        from: 'megan@buildco.test',
        internetMessageId: `<pier-${i}@buildco.test>`,
        bodyText: `Mia,\n${text}\n\n${signature}`,
      });
    for (const [i, text] of [
      'The basement carpark jet fans clash with the sprinkler main.',
      'Jet fan brackets for the carpark are fabricated.',
    ].entries())
      await file(f.projectA2.id, {
        subject: `Basement ${i}`,
        from: 'megan@buildco.test',
        internetMessageId: `<dock-${i}@buildco.test>`,
        bodyText: `Mia,\n${text}\n\n${signature}`,
      });

    const [first] = await suggest({
      subject: 'Carpark',
      from: { address: 'megan@buildco.test' },
      bodyPreview: `Mia,\nThe jet fans are up.\n\n${signature}`,
    });
    expect(first?.projectName).toBe('Dockside Offices');
    expect(first?.reasons.join(' ')).not.toMatch(/0412|220|traditional/i);
  });

  it('a never-seen sender whose words only touch a project (a recruiter) gets nothing at 0.5 or more; naming it does', async () => {
    for (const [i, text] of [
      'Jet fans in the basement carpark are commissioned.',
      'Carpark jet fan controls need the fire panel interface.',
      'Basement carpark ventilation test on Thursday.',
    ].entries())
      await file(f.projectA2.id, {
        subject: `Carpark ventilation ${i}`,
        from: 'ops@ventco.test',
        internetMessageId: `<vent-${i}@ventco.test>`,
        bodyText: `Mia,\n${text}`,
      });
    const recruiter = await suggest({
      subject: 'Site managers available now',
      from: { address: 'anna@hirehub.test' },
      bodyPreview:
        'Hi Mia,\nWe have placed site managers on basement carpark ventilation jobs like the Dockside work.\nCan we talk this week?',
    });
    expect(recruiter.every((s) => s.score < 0.5)).toBe(true);
    const [named] = await suggest({
      subject: 'Quote',
      from: { address: 'sales@fanworks.test' },
      bodyPreview: 'Hi Mia,\nOur quote for the Dockside Offices carpark jet fans is attached.',
    });
    expect(named?.projectName).toBe('Dockside Offices');
    expect(named?.score).toBeGreaterThanOrEqual(0.5);
  });

  it('a reply in a thread filed to one project whose new text names another project goes to the other one', async () => {
    await file(f.projectA1.id, {
      subject: 'Crane booking',
      from: 'omar@cranes.test',
      internetMessageId: '<crane-1@cranes.test>',
      conversationId: 'conv-switch',
      bodyText: 'The crane is booked for Friday at 7.',
    });
    const [first, second] = await suggest({
      subject: 'RE: Crane booking',
      from: { address: 'omar@cranes.test' },
      conversationId: 'conv-switch',
      bodyPreview: 'Separate job: for Dockside Offices we need the mobile crane on Tuesday instead.',
    });
    expect(first?.projectName).toBe('Dockside Offices');
    // The thread still counts: its project is offered second.
    expect(second?.projectName).toBe('Pier 9 Terminal');
  });

  it('a reply that names the thread’s project only as the old topic and another by name goes to the other one', async () => {
    // A long thread on Pier 9, its project in every subject, from a sender filed there: all of it says Pier 9.
    for (const [i, text] of ['The hoist shaft riser is congested at level 2.', 'Riser drawings revised.'].entries())
      await file(f.projectA1.id, {
        subject: `${i === 0 ? '' : 'RE: '}Pier 9 Terminal - riser congestion`,
        from: 'ivan@consult.test',
        internetMessageId: `<riser-${i}@consult.test>`,
        conversationId: 'conv-riser',
        bodyText: text,
      });
    const [first, second] = await suggest({
      subject: 'RE: Pier 9 Terminal - riser congestion',
      from: { address: 'ivan@consult.test' },
      conversationId: 'conv-riser',
      bodyPreview:
        'The riser issue at Pier 9 Terminal is long closed, just replying to your last email. I need the commissioning sheets for Dockside Offices this week.',
    });
    expect(first?.projectName).toBe('Dockside Offices');
    expect(second?.projectName).toBe('Pier 9 Terminal');
  });

  it('a reply in a thread filed to one project whose new text names another by one word only offers both, in doubt', async () => {
    await file(f.projectA1.id, {
      subject: 'Hoist booking',
      from: 'omar@hoistco.test',
      internetMessageId: '<hoist-1@hoistco.test>',
      conversationId: 'conv-hoist',
      bodyText: 'The hoist is booked for Friday at 7.',
    });
    const answer = await suggest({
      subject: 'RE: Hoist booking',
      from: { address: 'omar@hoistco.test' },
      conversationId: 'conv-hoist',
      bodyPreview: 'Can we have the same for Dockside on Tuesday?',
    });
    expectOfferedInDoubt(answer, ['Dockside Offices', 'Pier 9 Terminal']);
  });

  it('a reply whose new text describes another project without naming it offers both, below the AI’s bar', async () => {
    // Dockside's own words (its carpark jet fans), taught by its filed mail; a crane thread filed on Pier 9.
    for (const [i, text] of [
      'Carpark jet fan brackets are fabricated and the sprinkler clash is resolved.',
      'Jet fan commissioning in the carpark is booked; the smoke exhaust test follows.',
      'Carpark jet fans: the smoke exhaust test passed.',
    ].entries())
      await file(f.projectA2.id, {
        subject: `Jet fans ${i}`,
        from: 'ops@fanco.test',
        internetMessageId: `<fans-${i}@fanco.test>`,
        bodyText: `Mia,\n${text}`,
      });
    for (const [i, text] of [
      'The tower crane is booked for Friday at 7.',
      'Tower crane lift plan for the precast stairs attached.',
    ].entries())
      await file(f.projectA1.id, {
        subject: `${i === 0 ? '' : 'RE: '}Tower crane booking`,
        from: 'omar@liftco.test',
        internetMessageId: `<tower-${i}@liftco.test>`,
        conversationId: 'conv-tower',
        bodyText: text,
      });
    const onTopic = await suggest({
      subject: 'RE: Tower crane booking',
      from: { address: 'omar@liftco.test' },
      conversationId: 'conv-tower',
      bodyPreview: 'The tower crane lift plan is approved; booked for Friday at 7.',
    });
    expect(onTopic[0]?.projectName).toBe('Pier 9 Terminal');
    expect(onTopic[0]?.score).toBeGreaterThanOrEqual(AI_ASK_BELOW);

    const elsewhere = await suggest({
      subject: 'RE: Tower crane booking',
      from: { address: 'omar@liftco.test' },
      conversationId: 'conv-tower',
      bodyPreview:
        'Other matter, same chain: the carpark jet fan smoke exhaust test needs the sprinkler contractor there.',
    });
    // The thread is evidence, not a verdict: neither is sure, both are offered.
    expectOfferedInDoubt(elsewhere, ['Dockside Offices', 'Pier 9 Terminal']);
  });
});

describe('what an e-mail is about, by its shape', () => {
  it('a reply no filed thread knows, whose repeated subject names one project and whose new text another, goes to the other one', async () => {
    const [first, second] = await suggest({
      subject: 'RE: Pier 9 Terminal hoist booking',
      from: { address: 'omar@hoists.test' },
      bodyPreview:
        'Different job: for Dockside Offices we need the mast climber on Tuesday instead.\n\n> The hoist is booked for Friday at 7.',
    });
    expect(first?.projectName).toBe('Dockside Offices');
    // The old topic is still offered.
    expect(second?.projectName).toBe('Pier 9 Terminal');
  });

  it('a new e-mail goes to the project its main part names, not to one a shorter paragraph after it names (a PS)', async () => {
    // A detailer on both projects.
    for (const [i, projectId] of [f.projectA1.id, f.projectA2.id].entries())
      await file(projectId, {
        subject: `Shop drawings ${i}`,
        from: 'marco@detailers.test',
        internetMessageId: `<shop-${i}@detailers.test>`,
        bodyText: 'Mia,\nShop drawings for review attached.',
      });
    const mail = (body: string) =>
      suggest({ subject: 'As-built models', from: { address: 'marco@detailers.test' }, bodyPreview: body });
    const main =
      'The owner wants the Tekla model of the Dockside roof trusses for their facilities people, with the mezzanine added in March. Which truss connections go in?';
    const [first] = await mail(`Mia,\n\n${main}\n\nPS - the Pier 9 Terminal as-builts went out last month.\n\nMarco`);
    expect(first?.projectName).toBe('Dockside Offices');
    // Named in the main part, it is the topic.
    const [named] = await mail(`Mia,\n\n${main.replace('Dockside', 'Pier 9 Terminal')}\n\nPS - Dockside is done.`);
    expect(named?.projectName).toBe('Pier 9 Terminal');
  });

  it('a new e-mail goes to the project its subject names, not to one its text mentions', async () => {
    // Both projects' names and plant are in their filed mail.
    for (const [i, [projectId, text]] of [
      [f.projectA1.id, 'Pier 9 Terminal plant: the roller moves to the compound.'],
      [f.projectA2.id, 'Dockside plant: two diggers from Monday.'],
    ].entries())
      await file(projectId!, {
        subject: 'Plant moves',
        from: 'hire@plantco.test',
        internetMessageId: `<plant-${i}@plantco.test>`,
        bodyText: text,
      });
    const body = 'The site shed from Pier 9 Terminal goes in at the old compound next week.';
    const [subjectNamed] = await suggest({
      subject: 'Dockside plant list',
      from: { address: 'greg@harbor.test' },
      bodyPreview: body,
    });
    expect(subjectNamed?.projectName).toBe('Dockside Offices');
    // With a subject that names nothing, the text's project is the topic.
    const [textNamed] = await suggest({
      subject: 'Plant list',
      from: { address: 'greg@harbor.test' },
      bodyPreview: body,
    });
    expect(textNamed?.projectName).toBe('Pier 9 Terminal');
  });

  it('a number filed once (a size, a quantity) does not preselect a project; an identifier filed once does', async () => {
    await file(f.projectA1.id, {
      subject: 'Culverts 750 and permit BP31-0457',
      from: 'dean@precast.test',
      internetMessageId: '<culverts-1@precast.test>',
      bodyText: 'Order placed.',
    });
    const ask = (subject: string) =>
      suggest({ subject, from: { address: 'yard@harbor.test' }, bodyPreview: 'Can you confirm?' });
    const [identifier] = await ask('BP31-0457');
    expect(identifier?.projectName).toBe('Pier 9 Terminal');
    expect(identifier?.score).toBeGreaterThanOrEqual(0.8);
    const [number] = await ask('750');
    expect(number?.projectName).toBe('Pier 9 Terminal');
    expect(number?.score).toBeLessThan(0.8);
  });
});

describe('mail to the whole firm', () => {
  it('a colleague writing to an all-staff list is about no project, whatever project it names; to the person, it is', async () => {
    const text = 'Hi all,\nPlease back up your site photos from Dockside Offices before you hand in your old phone.';
    const toStaff = await suggest({
      subject: 'New phones',
      from: { address: 'it@harbor.test' },
      to: [{ address: 'staff@harbor.test' }],
      bodyPreview: text,
    });
    expect(toStaff.every((s) => s.score < 0.5)).toBe(true);
    const [toMember] = await suggest({ subject: 'New phones', from: { address: 'it@harbor.test' }, bodyPreview: text });
    expect(toMember?.projectName).toBe('Dockside Offices');
    expect(toMember?.score).toBeGreaterThanOrEqual(0.5);
  });

  it('a firm’s mailing sent to its own address (everyone in Bcc) is about no project, whatever project it names', async () => {
    const text = 'Spring news.\nDockside Offices has won a regional award. Thank you to all our partners.';
    const mailing = await suggest({
      subject: 'Supply chain news',
      from: { address: 'news-desk@buildco.test' },
      to: [{ address: 'news-desk@buildco.test' }],
      bodyPreview: text,
    });
    expect(mailing.every((s) => s.score < 0.5)).toBe(true);
    const [toMember] = await suggest({
      subject: 'Supply chain news',
      from: { address: 'news-desk@buildco.test' },
      bodyPreview: text,
    });
    expect(toMember?.projectName).toBe('Dockside Offices');
  });
});

describe('the firm’s own offices', () => {
  it('a colleague of a sister office (another country’s domain) is not placed by where their mail was filed', async () => {
    for (const [i, topic] of ['Pour records', 'Crane lift plan', 'Scaffold tags'].entries())
      await file(f.projectA1.id, {
        subject: topic,
        from: 'kim.osei@harbor.co.uk',
        internetMessageId: `<sister-${i}@harbor.co.uk>`,
        bodyText: `${topic} for this week are attached.`,
      });
    const notice = await suggest({
      subject: 'Our office moves on Friday',
      from: { address: 'kim.osei@harbor.co.uk' },
      bodyPreview: 'Please pack your desks by Thursday; the movers come at eight.',
    });
    expect(notice.every((s) => s.score < 0.5)).toBe(true);
  });
});

describe('identifiers written several times', () => {
  it('an hour sheet goes to the job it books most, not to one it books half a day', async () => {
    await createProject(server.database.db, { organizationId: f.orgA.id, name: 'Alder Court', code: 'HB-31-104' });
    const booked = await createProject(server.database.db, {
      organizationId: f.orgA.id,
      name: 'Birch Lane',
      code: 'HB-31-105',
    });
    const [first, second] = await suggest({
      subject: 'Hours week 17 - Jens',
      from: { address: 'jens@harbor.test' },
      to: [{ address: 'hours@harbor.test' }, { address: 'member@harbor.test' }],
      bodyPreview: [
        'mon 8h  HB-31-105  strip pipes corridor 1',
        'tue 8h  HB-31-105  strip corridor 1',
        'wed 8h  HB-31-105  drains corridor 1',
        'thu 8h  HB-31-105  same',
        'fri 4h  HB-31-105 + 4h HB-31-104 snagging',
        'total 40h',
      ].join('\n'),
    });
    expect(first?.projectId).toBe(booked.id);
    expect(second?.projectName).toBe('Alder Court');
  });
});

describe('words of any kind', () => {
  it('words that are also names of Object.prototype members ("Constructors") are only words', async () => {
    // Look-alike projects, so the text is split into the units that tell them apart.
    for (const name of ['Oakwood Station Glazing', 'Oakwood Station Canopy'])
      await createProject(server.database.db, { organizationId: f.orgA.id, name });
    const [first] = await suggest({
      subject: 'Night work next week',
      from: { address: 'site@crosstown-constructors.test' },
      bodyPreview: 'Hi Mia,\nNight work for the Oakwood Station glazing is extended.\n\nCrosstown West Constructors',
    });
    expect(first?.projectName).toBe('Oakwood Station Glazing');
  });
});

describe('look-alike projects', () => {
  it('a project suggested on its words and people alone brings its look-alike along, second', async () => {
    const [stage1] = await Promise.all(
      ['Kestrel Rise Stage 1', 'Kestrel Rise Stage 2'].map((name) =>
        createProject(server.database.db, { organizationId: f.orgA.id, name }),
      ),
    );
    for (const i of [1, 2, 3])
      await file(stage1!.id, {
        subject: `Manhole inspection ${i}`,
        from: 'nick@surveyors.test',
        internetMessageId: `<manholes-${i}@surveyors.test>`,
        bodyText: 'The council inspector passed the manholes on the cul-de-sac.',
      });
    const suggestions = await suggest({
      subject: 'Consent lodged',
      from: { address: 'nick@surveyors.test' },
      bodyPreview: 'The council inspector wants the manholes raised first.',
    });
    expect(suggestions.map((s) => s.projectName).slice(0, 2)).toEqual(['Kestrel Rise Stage 1', 'Kestrel Rise Stage 2']);
    expect(suggestions[1]?.reasons.join(' ')).toContain('A look-alike of Kestrel Rise Stage 1');
  });

  it('a reply in a thread of one look-alike whose new text turns to the other by its own word offers both, in doubt', async () => {
    const [, plant] = await Promise.all(
      ['Harlow Medical Centre Patient Tower', 'Harlow Medical Centre Energy Plant'].map((name) =>
        createProject(server.database.db, { organizationId: f.orgA.id, name }),
      ),
    );
    await file(plant!.id, {
      subject: 'Chiller submittal 23 64 16-01',
      from: 'marcus@buildco.test',
      internetMessageId: '<chiller-1@buildco.test>',
      conversationId: 'conv-chiller',
      bodyText: 'Chiller 2 witness test passed at the factory.',
    });
    const onTopic = await suggest({
      subject: 'RE: Chiller submittal 23 64 16-01',
      from: { address: 'marcus@buildco.test' },
      conversationId: 'conv-chiller',
      bodyPreview: 'Chiller 1 ships on the 12th, rigging on the 14th.',
    });
    expect(onTopic[0]?.projectName).toBe('Harlow Medical Centre Energy Plant');
    expect(onTopic[0]!.score).toBeGreaterThanOrEqual(AI_ASK_BELOW);
    // The thread is the group's: "the tower" tells the tower from the plant without the shared word "Harlow".
    const turned = await suggest({
      subject: 'RE: Chiller submittal 23 64 16-01',
      from: { address: 'marcus@buildco.test' },
      conversationId: 'conv-chiller',
      bodyPreview: 'Chillers are sorted, so switching topics: the tower’s permanent power is energized on the 20th.',
    });
    expectOfferedInDoubt(turned, ['Harlow Medical Centre Energy Plant', 'Harlow Medical Centre Patient Tower']);
  });
});

// Last: the project it adds would change what the organization's other projects' words say.
describe('a stranger', () => {
  it('a never-seen sender naming the place a project’s alias is made of gets nothing at 0.5; its own alias does', async () => {
    await createProject(server.database.db, {
      organizationId: f.orgA.id,
      name: 'Gelang Patah Cold Chain Hub',
      aliases: ['Gelang Patah', 'Johor cold store'],
    });
    const recruiter = await suggest({
      subject: 'Project Director role',
      from: { address: 'sharon@buildtalent.test' },
      bodyPreview: 'Hi Mia,\nOur client has three hyperscale projects in Johor (Sedenak, Gelang Patah). Quick chat?',
    });
    expect(recruiter.every((s) => s.score < 0.5)).toBe(true);
    const [named] = await suggest({
      subject: 'Quote',
      from: { address: 'sales@racking.test' },
      bodyPreview: 'Hi Mia,\nOur quote for the Johor cold store racking is attached.',
    });
    expect(named?.projectName).toBe('Gelang Patah Cold Chain Hub');
    expect(named?.score).toBeGreaterThanOrEqual(0.5);
  });

  it('a newsletter from a never-seen sender naming a project’s place stays below the AI’s floor', async () => {
    await createProject(server.database.db, {
      organizationId: f.orgA.id,
      name: 'Villa 27 Jumeirah Bay Island - Private Residence Fit-out',
    });
    const suggestions = await suggest({
      subject: 'Gulf Business Today: Jumeirah Bay Island villas sell for record prices',
      from: { address: 'newsletter@gulfbusiness.test' },
      bodyPreview: 'A Jumeirah Bay Island villa sold for AED 180m; office rents up 14%.',
    });
    expect(suggestions.every((s) => s.score < POINTS_AT)).toBe(true);
  });
});

describe('a portal’s notice', () => {
  it('names a project in full once the organization has filed that portal’s notices', async () => {
    const mall = await createProject(server.database.db, {
      organizationId: f.orgA.id,
      name: 'Al Waha Mall Phase 2 - Food Court and Cinema Lobby',
    });
    await file(mall.id, {
      subject: 'Application DCD-FO-2025-01120 - Approved',
      from: 'no-reply@dcd.test',
      internetMessageId: '<dcd-01120@dcd.test>',
      bodyText: 'Application number: DCD-FO-2025-01120\nService: Fit-out drawings approval\nStatus: Approved',
    });
    const [first] = await suggest({
      subject: 'Application DCD-FO-2026-03341 - Inspection scheduled',
      from: { address: 'no-reply@dcd.test' },
      bodyPreview:
        'Application number: DCD-FO-2026-03341\nService: Fit-out completion inspection\nBuilding: Al Waha Mall - Level 2 (Food court / cinema lobby)',
    });
    expect(first?.projectId).toBe(mall.id);
    expect(first!.score).toBeGreaterThanOrEqual(AI_ASK_BELOW);
  });

  it('from another address of a domain whose people’s mail is filed (events@), an invitation stays about no project', async () => {
    const depot = await createProject(server.database.db, {
      organizationId: f.orgA.id,
      name: 'Warrington Distribution Centre',
    });
    for (const [i, text] of ['Steel frame erected.', 'Cladding starts Monday.', 'Roof sheets delivered.'].entries())
      await file(depot.id, {
        subject: `Warrington progress ${i}`,
        from: 'site@brackley.test',
        internetMessageId: `<warrington-${i}@brackley.test>`,
        bodyText: `Warrington: ${text}`,
      });
    const suggestions = await suggest({
      subject: 'You are invited - charity golf day, Warrington',
      from: { address: 'events@brackley.test' },
      bodyPreview: 'Dear Partner, our annual charity golf day is on 12 June in Warrington. Teams of four.',
    });
    expect(suggestions.every((s) => s.score < 0.5)).toBe(true);
  });
});
