import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { dirname, join } from 'node:path';
import { Public } from '../caller/route-access.decorator';
import { OperatorConsoleGuard } from './operator-console.guard';
import { CONSOLE_CONTENT_SECURITY_POLICY, USAGE_CONSOLE_HTML } from './usage-console.page';

/** The browser script beside this file (copied into the build as it is: plain JavaScript). */
const CONSOLE_SCRIPT_FILE = join(__dirname, 'usage-console.browser.js');
/** Chart.js's self-contained browser build, from the gateway's own node_modules: no CDN, the gateway may be offline. */
const CHART_LIBRARY_FILE = join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');

/** GET /admin/console: the usage console page and its two scripts, behind the operator's ADMIN_TOKEN. */
@Public()
@UseGuards(OperatorConsoleGuard)
@ApiExcludeController()
@Controller('admin/console')
export class UsageConsoleController {
  @Get()
  page(@Res() response: Response): void {
    response
      .status(200)
      .type('html')
      .setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY)
      .setHeader('Cache-Control', 'no-store')
      .send(USAGE_CONSOLE_HTML);
  }

  @Get('assets/usage-console.js')
  script(@Res() response: Response): void {
    response.sendFile(CONSOLE_SCRIPT_FILE, { headers: { 'Cache-Control': 'no-cache' } });
  }

  @Get('assets/chart.umd.min.js')
  chartLibrary(@Res() response: Response): void {
    response.sendFile(CHART_LIBRARY_FILE, { headers: { 'Cache-Control': 'no-cache' } });
  }
}
