import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * The console's key scope picker over an organization of 5,000 projects (issue 39, Broken 4: only the first 2,000
 * could be chosen): any project is found by typing words of its name or code, in any order, with a typo or without
 * its accents, by mouse and by keyboard, at 320 and 450 px, light and dark; the key is scoped to what was chosen.
 */

const kinds = ['Quay', 'Tower', 'Depot', 'School', 'Clinic'];

describeInBrowser('the console scope picker at 5,000 projects', () => {
  const suite = useBrowserSuite();
  /** Project ids by name, of the projects the tests look for. */
  const ids = new Map<string, string>();

  beforeAll(async () => {
    const { server, f } = suite;
    const db = server.database.db;
    // Straight into the table: 5,000 rows in one statement (the generated search key is made by PostgreSQL).
    await db.execute(sql`
      insert into projects (id, organization_id, name, code)
      select 'prj_bulk_' || n, ${f.orgA.id}, (array['North','South','East','West'])[n % 4 + 1] || ' '
        || (array[${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )}])[n % 5 + 1] || ' ' || n, 'J-' || (1000 + n)
      from generate_series(0, 4999) n`);
    for (const [id, name, code] of [
      ['prj_riverside2', 'Riverside Medical Phase 2', 'RMP-2'],
      ['prj_riverside1', 'Riverside Medical Phase 1', null],
      ['prj_granite', 'Granite Fire Hall', '3301'],
      ['prj_marys', 'St Mary’s Church Façade', null],
    ] as const) {
      await db.execute(
        sql`insert into projects (id, organization_id, name, code) values (${id}, ${f.orgA.id}, ${name}, ${code})`,
      );
      ids.set(name, id);
    }
    await db.execute(sql`analyze projects`);
  });

  const cases = [
    { width: 320, theme: 'light', input: 'keyboard' },
    { width: 450, theme: 'dark', input: 'mouse' },
    { width: 450, theme: 'light', input: 'keyboard' },
    { width: 320, theme: 'dark', input: 'mouse' },
  ] as const;

  for (const [i, { width, theme, input }] of cases.entries()) {
    it(`scopes a key to projects found by typing (${input}, ${width} px, ${theme})`, async () => {
      const { server, f } = suite;
      const { context, page } = await suite.openAdmin({
        width,
        height: 800,
        colorScheme: theme,
        signInAs: ['admin@harbor.test', 'admin-pass-1'],
      });
      const keyName = `Scoped ${width} ${theme} ${input}`;
      await page.getByLabel('Name').fill(keyName);
      const picker = page.getByRole('combobox', {
        name: /^Projects \(none chosen: the whole of Harbor Construction\)/,
      });
      await picker.waitFor();
      // A bulk project past the 2,000th by name, and the examples of issue 39, typed as people type them.
      const bulk = 4000 + i * 97;
      const bulkName = `${['North', 'South', 'East', 'West'][bulk % 4]} ${kinds[bulk % 5]} ${bulk}`;
      const wanted = [
        {
          typed: `${bulk} ${kinds[bulk % 5]!.toLowerCase()}`,
          option: `J-${1000 + bulk} · ${bulkName}`,
          name: bulkName,
        },
        { typed: 'phase 2 riverside', option: 'RMP-2 · Riverside Medical Phase 2', name: 'Riverside Medical Phase 2' },
        { typed: 'granit fire', option: '3301 · Granite Fire Hall', name: 'Granite Fire Hall' },
        { typed: 'st marys facade', option: 'St Mary’s Church Façade', name: 'St Mary’s Church Façade' },
      ];
      for (const [n, target] of wanted.entries()) {
        await typeInto(page, input, target.typed, n === 0);
        const option = page.getByRole('menuitemcheckbox', { name: target.option });
        await option.waitFor();
        // The best match is the first option.
        expect(await page.getByRole('menuitemcheckbox').first().textContent()).toBe(target.option);
        if (n === 1) {
          await shot(page, `scope-picker-${width}-${theme}-open`);
          await expectAccessible(page);
        }
        if (input === 'mouse') await option.click();
        else await pickActive(page, picker, target.option);
        await page.getByRole('button', { name: `Remove ${target.option}` }).waitFor();
      }
      await page.keyboard.press('Escape');
      // One chosen by mistake is removed again.
      const removeGranite = page.getByRole('button', { name: 'Remove 3301 · Granite Fire Hall' });
      if (input === 'mouse') await removeGranite.click();
      else {
        await removeGranite.focus();
        await page.keyboard.press('Enter');
      }
      await expect.poll(() => removeGranite.count()).toBe(0);
      // Nothing sticks out sideways in a narrow window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await shot(page, `scope-picker-${width}-${theme}-chosen`);
      await expectAccessible(page);

      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByTestId('client-secret').waitFor();
      const keys = await server.call(`/v1/organization/${f.orgA.id}/clients?limit=50`, { token: f.admin.token });
      const created = keys.body.data.find((k: { name: string }) => k.name === keyName);
      expect(created.scopes.projects.map((p: { projectId: string }) => p.projectId).sort()).toEqual(
        [`prj_bulk_${bulk}`, ids.get('Riverside Medical Phase 2'), ids.get('St Mary’s Church Façade')].sort(),
      );
      await context.close();
    });
  }

  it('says when nothing matches, and that more match than are shown', async () => {
    const { context, page } = await suite.openAdmin({ width: 320, signInAs: ['admin@harbor.test', 'admin-pass-1'] });
    const picker = page.getByRole('combobox', { name: /^Projects/ });
    await picker.click();
    await picker.pressSequentially('quay');
    await page.getByRole('menuitemcheckbox', { name: 'More projects match: type more of the name or code' }).waitFor();
    expect(await page.getByRole('menuitemcheckbox').count()).toBe(21);
    await picker.fill('');
    await picker.pressSequentially('zzyzx quokka');
    await page.getByRole('menuitemcheckbox', { name: 'No project matches “zzyzx quokka”' }).waitFor();
    await shot(page, 'scope-picker-320-light-no-match');
    await expectAccessible(page);
    await context.close();
  });
});

/** Types into the picker: clicked or reached with Tab; after the first, the old text is selected and replaced. */
async function typeInto(page: Page, input: 'mouse' | 'keyboard', text: string, first: boolean) {
  const picker = page.getByRole('combobox', { name: /^Projects/ });
  if (input === 'mouse') {
    await picker.click();
    await picker.selectText();
    await picker.pressSequentially(text);
    return;
  }
  if (first) {
    await page.getByLabel('Name').focus();
    // From the name through the permission checkboxes to the picker, as a keyboard user goes.
    for (let i = 0; i < 20 && !(await picker.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await picker.evaluate((el) => el === document.activeElement)).toBe(true);
  }
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** Arrows down until `option` is the active one, then Enter: the list stays open for more. */
async function pickActive(page: Page, picker: ReturnType<Page['getByRole']>, option: string) {
  const id = await page.getByRole('menuitemcheckbox', { name: option }).getAttribute('id');
  for (let i = 0; i < 25 && (await picker.getAttribute('aria-activedescendant')) !== id; i++) {
    await page.keyboard.press('ArrowDown');
  }
  expect(await picker.getAttribute('aria-activedescendant')).toBe(id);
  await page.keyboard.press('Enter');
}
