import { Module } from '@nestjs/common';
import { TeamService as TeamRules } from '@sift/auth';
import { MemberRepository } from '@sift/persistence';
import { FeedbackController } from './feedback/feedback.controller';
import { FeedbackService } from './feedback/feedback.service';
import { KeysController } from './keys/keys.controller';
import { KeysService } from './keys/keys.service';
import { LogsController } from './logs/logs.controller';
import { LogsService } from './logs/logs.service';
import { TeamController } from './team/team.controller';
import { TeamService } from './team/team.service';
import { UsageController } from './usage/usage.controller';

/** Usage, logs, feedback, key management and team: the account plane. */
@Module({
  controllers: [UsageController, LogsController, FeedbackController, KeysController, TeamController],
  providers: [
    LogsService,
    FeedbackService,
    KeysService,
    TeamService,
    { provide: TeamRules, inject: [MemberRepository], useFactory: (members: MemberRepository) => new TeamRules(members) },
  ],
})
export class AccountPlaneModule {}
