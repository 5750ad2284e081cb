import { NetworkStats } from './NetworkStats'
import { StakingPanel } from './StakingPanel'
import { SubmitTaskForm } from './SubmitTaskForm'
import { TaskList } from './TaskList'
import { WalletPanel } from './WalletPanel'

/** `#/`: the network, the connected account's wallet and stake, task submission and its tasks. */
export function Overview() {
  return (
    <div className="overview">
      <NetworkStats />
      <div className="columns">
        <div className="column">
          <SubmitTaskForm />
          <TaskList />
        </div>
        <div className="column">
          <WalletPanel />
          <StakingPanel />
        </div>
      </div>
    </div>
  )
}
