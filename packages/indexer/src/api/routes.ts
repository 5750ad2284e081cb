/**
 * Every REST route, declared once: the app serves this table and the OpenAPI
 * document describes it, so that the two cannot drift apart.
 */
import { getLease, getLeaseParameters, listLeases, listLeasesParameters } from './leases.js'
import type { Parameter } from './parameters.js'
import { getProvider, getProviderParameters, listProviders, listProvidersParameters } from './providers.js'
import { quote, quoteParameters, taskQuote, taskQuoteParameters } from './quote.js'
import { getSource, getSourceParameters, listSources, listSourcesParameters } from './sources.js'
import { getStats, getStatsParameters } from './stats.js'
import { getTask, getTaskParameters, listTasks, listTasksParameters } from './tasks.js'

export interface Route {
  /** An OpenAPI path: `/tasks/{id}`. */
  path: string
  operationId: string
  summary: string
  description: string
  parameters: Record<string, Parameter<unknown>>
  /** The component schema of the 200 answer. */
  response: string
  /** Whether an id in the path can name nothing (404). */
  notFound: boolean
  /** When what the request names may be in no state to answer it (409): what that means. */
  conflict?: string | undefined
  answer(parameters: never): Promise<unknown>
}

/** A route whose answer takes exactly what its parameters read. */
function route<parameters extends Record<string, Parameter<unknown>>>(
  declaration: Omit<Route, 'parameters' | 'answer'> & {
    parameters: parameters
    answer(parameters: { [name in keyof parameters]: ReturnType<parameters[name]['read']> }): Promise<unknown>
  },
): Route {
  return declaration as Route
}

export const routes: readonly Route[] = [
  route({
    path: '/tasks',
    operationId: 'listTasks',
    summary: 'Tasks, newest first',
    description:
      'Tasks by id, newest first, filtered by client, provider, source and status; a page of `limit` and the cursor of the next.',
    parameters: listTasksParameters,
    response: 'TaskPage',
    notFound: false,
    answer: listTasks,
  }),
  route({
    path: '/tasks/{id}',
    operationId: 'getTask',
    summary: 'A task',
    description:
      'A task with its terms, its slots (every claim, replicas then auditors), its settlement (paid, refund, fees, payments, slashes), its audit and its result and receipt CIDs.',
    parameters: getTaskParameters,
    response: 'Task',
    notFound: true,
    answer: getTask,
  }),
  route({
    path: '/tasks/{id}/quote',
    operationId: 'quoteOpenTask',
    summary: 'Why nobody takes an open task',
    description:
      'For an open task: which registered providers could claim it now, which could not and every reason why (paused, not subscribed, GPU count, VRAM, compute capability, reputation, collateral, price floor, already holding a slot), whether its deadline still lets anyone claim it, and what the source’s recent claimed tasks offered and waited.',
    parameters: taskQuoteParameters,
    response: 'Quote',
    notFound: true,
    conflict: 'The task is not open (the body’s `taskStatus` says what it is).',
    answer: taskQuote,
  }),
  route({
    path: '/quote',
    operationId: 'quoteTask',
    summary: 'A quote before submitting',
    description:
      'For the terms of a task not yet submitted (resolved with the source’s as a submission would be, the collateral from the market’s parameters): which registered providers could claim it now, which could not and every reason why, and what the source’s recent claimed tasks offered per GPU-second and waited for a claim.',
    parameters: quoteParameters,
    response: 'Quote',
    notFound: true,
    conflict: 'The source is inactive: it takes no new tasks.',
    answer: quote,
  }),
  route({
    path: '/leases',
    operationId: 'listLeases',
    summary: 'Leases, newest first',
    description:
      'Leases by id, newest first, filtered by renter, provider, source and status; a page of `limit` and the cursor of the next.',
    parameters: listLeasesParameters,
    response: 'LeasePage',
    notFound: false,
    answer: listLeases,
  }),
  route({
    path: '/leases/{id}',
    operationId: 'getLease',
    summary: 'A lease',
    description:
      'A lease with its request, its acceptance (provider, price, collateral, start, end), what it served and paid (redemptions, fees, deposit left, top-ups), a pending offline report, and its end (reason, uptime, refund, penalty).',
    parameters: getLeaseParameters,
    response: 'Lease',
    notFound: true,
    answer: getLease,
  }),
  route({
    path: '/providers',
    operationId: 'listProviders',
    summary: 'Providers, latest registered first',
    description: 'Providers with their capabilities, profile CID, success record, earnings and stake.',
    parameters: listProvidersParameters,
    response: 'ProviderPage',
    notFound: false,
    answer: listProviders,
  }),
  route({
    path: '/providers/{address}',
    operationId: 'getProvider',
    summary: 'A provider',
    description: 'A provider and the sources whose pool it is in.',
    parameters: getProviderParameters,
    response: 'ProviderDetail',
    notFound: true,
    answer: getProvider,
  }),
  route({
    path: '/sources',
    operationId: 'listSources',
    summary: 'Sources, latest published first',
    description: 'Sources with their terms and usage (tasks, paid, subscribers, creator fees).',
    parameters: listSourcesParameters,
    response: 'SourcePage',
    notFound: false,
    answer: listSources,
  }),
  route({
    path: '/sources/{id}',
    operationId: 'getSource',
    summary: 'A source',
    description: 'A source with its usage and its tasks by status.',
    parameters: getSourceParameters,
    response: 'SourceDetail',
    notFound: true,
    answer: getSource,
  }),
  route({
    path: '/stats',
    operationId: 'getStats',
    summary: 'Market statistics',
    description:
      'Tasks by status, queue depth (open tasks), the median time from submission to first claim and the price per GPU-second of each source over a window, providers, and running totals.',
    parameters: getStatsParameters,
    response: 'Stats',
    notFound: false,
    answer: getStats,
  }),
]
