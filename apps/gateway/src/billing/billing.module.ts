import { Global, Module } from '@nestjs/common';
import { BillingService } from '@sift/billing';
import { AccountRepository, ApiKeyRepository, CreditLedgerRepository, ProjectRepository } from '@sift/persistence';

@Global()
@Module({
  providers: [
    {
      provide: BillingService,
      inject: [CreditLedgerRepository, AccountRepository, ApiKeyRepository, ProjectRepository],
      useFactory: (ledger: CreditLedgerRepository, accounts: AccountRepository, apiKeys: ApiKeyRepository, projects: ProjectRepository) =>
        new BillingService({ ledger, accounts, apiKeys, projects }),
    },
  ],
  exports: [BillingService],
})
export class BillingModule {}
