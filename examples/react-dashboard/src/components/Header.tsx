import { ConnectButton } from './ConnectButton'
import { NetworkName } from './NetworkName'

export function Header() {
  return (
    <header className="header">
      <a className="brand" href="#/">
        Gridforge
      </a>
      <NetworkName />
      <ConnectButton />
    </header>
  )
}
