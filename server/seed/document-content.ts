import { dateOnly } from './model.js';
import type { Rng } from './random.js';
import * as v from './vocabulary.js';
import { closedStatuses, type Format, type Status } from './workflow.js';

/** Title, description and the format-specific fields of a document. */
export function documentContent(rng: Rng, format: Format, status: Status, createdAt: Date, projectName: string) {
  const details: Record<string, unknown> = {};
  const searchParts: string[] = [];
  let divisionTitle: string | null = null;
  let referenceNumber: string | null = null;
  let title: string;
  let description: string;
  switch (format) {
    case 'submittal': {
      const division = rng.pick(v.csiDivisions);
      title = rng.pick(division.items);
      divisionTitle = division.title;
      const section = `${division.number} ${rng.int(10, 90)} ${String(rng.int(0, 9) * 10).padStart(2, '0')}`;
      referenceNumber = `${section}-${String(rng.int(1, 12)).padStart(2, '0')}`;
      details.specSection = section;
      details.package = `${division.title.split(' - ')[1]} package`;
      description = `${title} for ${projectName}, submitted per specification section ${section}.`;
      searchParts.push(division.title);
      break;
    }
    case 'rfi': {
      title = rng.pick(v.rfiTopics);
      const question = rng.pick(v.rfiQuestions);
      details.question = question;
      details.costImpact = rng.pick(['none', 'possible', 'yes']);
      details.scheduleImpact = rng.pick(['none', 'possible', 'yes']);
      if (status === 'issued' || closedStatuses.has(status)) details.answer = rng.pick(v.rfiAnswers);
      description = `${title}. ${question}`;
      searchParts.push(question, (details.answer as string | undefined) ?? '');
      break;
    }
    case 'change': {
      title = rng.pick(v.changeTitles);
      const reason = rng.pick(v.changeReasons);
      details.reason = reason;
      details.amount = rng.int(-20, 250) * 500;
      details.currency = 'USD';
      details.scheduleImpactDays = rng.int(0, 20);
      description = `${title}. Reason: ${reason}.`;
      searchParts.push(reason);
      break;
    }
    case 'instruction':
      title = rng.pick(v.instructionTitles);
      description = `Site instruction: ${title.toLowerCase()}.`;
      break;
    case 'quote':
      title = rng.pick(v.quoteTitles);
      details.amount = rng.int(4, 400) * 250;
      details.currency = 'USD';
      description = `${title}; valid for 30 days.`;
      break;
    case 'bulletin':
      title = rng.pick(v.bulletinTitles);
      description = `${title} issued for construction.`;
      break;
    case 'certificate':
      title = rng.pick(v.certificateTitles);
      details.period = dateOnly(createdAt).slice(0, 7);
      details.amount = rng.int(20, 900) * 1000;
      description = `${title} for ${details.period}.`;
      break;
  }
  return { title, description, details, searchParts, divisionTitle, referenceNumber };
}
