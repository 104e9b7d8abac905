// Every property test is bounded in time, shrinking included: a failure is reported, never a hung run.
import fc from 'fast-check';

fc.configureGlobal({ interruptAfterTimeLimit: 60_000, markInterruptAsFailure: true });
